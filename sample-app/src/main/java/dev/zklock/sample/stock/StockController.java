package dev.zklock.sample.stock;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import reactor.core.publisher.Mono;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The stock endpoints. Errors are answered as JSON problem details by {@link StockErrors}.
 */
@RestController
@RequestMapping("/stock/{sku}")
class StockController {

	private static final int MAX_STOCKTAKE_SECONDS = 30;

	private final InventoryService inventory;

	private final LaterReservations laterReservations;

	private final StockStages stages;

	StockController(InventoryService inventory, LaterReservations laterReservations, StockStages stages) {
		this.inventory = inventory;
		this.laterReservations = laterReservations;
		this.stages = stages;
	}

	@GetMapping
	Stock stock(@PathVariable String sku) {
		return this.inventory.stock(sku);
	}

	@PostMapping("/reserve")
	Reservation reserve(@PathVariable String sku, @RequestParam int qty) {
		return this.inventory.reserve(sku, checked(qty));
	}

	@PostMapping("/reserve-reactive")
	Mono<Reservation> reserveReactive(@PathVariable String sku, @RequestParam int qty) {
		return this.inventory.reserveReactive(sku, checked(qty));
	}

	@PostMapping("/reserve-later")
	CompletableFuture<LaterReservation> reserveLater(@PathVariable String sku, @RequestParam int qty) {
		CompletableFuture<LaterReservation> reservation = this.laterReservations.reserve(sku, checked(qty));
		// It completes once the lock is released: a stage scheduled then, even on the
		// propagating executor, finds no lock.
		return reservation.thenApplyAsync((done) -> done.afterRelease(LockSeen.find("stock:" + sku)),
				this.stages.executor());
	}

	@PostMapping("/restock")
	Stock restock(@PathVariable String sku, @RequestParam int qty) {
		return this.inventory.restock(sku, checked(qty));
	}

	@PostMapping("/restock-if-free")
	ResponseEntity<?> restockIfFree(@PathVariable String sku, @RequestParam int qty) {
		return this.inventory.restockIfFree(sku, checked(qty))
			.<ResponseEntity<?>>map(ResponseEntity::ok)
			.orElseGet(() -> ResponseEntity.status(HttpStatus.CONFLICT).body(skipped(sku, qty)));
	}

	@PostMapping("/stocktake")
	Stock stocktake(@PathVariable String sku, @RequestParam(defaultValue = "5") int seconds)
			throws InterruptedException {
		if (seconds < 0 || seconds > MAX_STOCKTAKE_SECONDS) {
			throw new IllegalArgumentException("seconds must be from 0 to " + MAX_STOCKTAKE_SECONDS);
		}
		return this.inventory.stocktake(sku, Duration.ofSeconds(seconds));
	}

	private static int checked(int quantity) {
		if (quantity < 1) {
			throw new InvalidQuantityException(quantity);
		}
		return quantity;
	}

	private static ProblemDetail skipped(String sku, int qty) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, "Not restocked: the lock on 'stock:"
				+ sku + "' was not obtained within " + InventoryService.RESTOCK_WAIT + ", so the call was skipped (onTimeout = SKIP)");
		problem.setProperty("error", "skipped");
		problem.setProperty("key", "stock:" + sku);
		problem.setProperty("requested", qty);
		return problem;
	}

}
