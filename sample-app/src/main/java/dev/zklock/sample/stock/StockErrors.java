package dev.zklock.sample.stock;

import dev.zklock.LockLostException;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Answers the application's own failures as JSON problem details (RFC 9457), each with an
 * {@code error} code that scripts can test. Lock failures are answered by zklock's own handler
 * (423 for a busy lock, 503 for ZooKeeper unreachable), except a lost lock, answered here with
 * what it means for a reservation: a handler of the application wins over zklock's.
 */
@RestControllerAdvice
class StockErrors {

	@ExceptionHandler
	ProblemDetail unknownSku(UnknownSkuException ex) {
		return problem(HttpStatus.NOT_FOUND, "unknown-sku", ex);
	}

	@ExceptionHandler
	ProblemDetail invalidQuantity(InvalidQuantityException ex) {
		return problem(HttpStatus.BAD_REQUEST, "invalid-quantity", ex);
	}

	@ExceptionHandler
	ProblemDetail invalidArgument(IllegalArgumentException ex) {
		return problem(HttpStatus.BAD_REQUEST, "invalid-argument", ex);
	}

	@ExceptionHandler
	ProblemDetail insufficientStock(InsufficientStockException ex) {
		ProblemDetail problem = problem(HttpStatus.CONFLICT, "insufficient-stock", ex);
		problem.setProperty("requested", ex.getRequested());
		problem.setProperty("available", ex.getAvailable());
		return problem;
	}

	@ExceptionHandler
	ProblemDetail staleFencingToken(StaleFencingTokenException ex) {
		ProblemDetail problem = problem(HttpStatus.CONFLICT, "stale-fencing-token", ex);
		problem.setProperty("fencingToken", ex.getFencingToken());
		return problem;
	}

	/**
	 * The lock was lost, or in doubt, when the call returned: its result was discarded, but
	 * what it wrote before, if the fencing token let it, stays written.
	 */
	@ExceptionHandler
	ProblemDetail lockLost(LockLostException ex) {
		ProblemDetail problem = problem(HttpStatus.SERVICE_UNAVAILABLE, "lock-lost", ex);
		problem.setProperty("key", ex.getKey());
		problem.setProperty("outcome", "unknown: the change may have been made; read the stock before retrying");
		return problem;
	}

	private static ProblemDetail problem(HttpStatus status, String error, Exception ex) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, String.valueOf(ex.getMessage()));
		problem.setProperty("error", error);
		return problem;
	}

}
