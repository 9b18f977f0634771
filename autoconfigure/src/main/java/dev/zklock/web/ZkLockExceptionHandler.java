package dev.zklock.web;

import java.net.URI;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

import dev.zklock.LeadershipLostException;
import dev.zklock.LockLostException;
import dev.zklock.LockTimeoutException;
import dev.zklock.NotLeaderException;
import dev.zklock.ZkLockException;

import org.springframework.context.MessageSource;
import org.springframework.context.MessageSourceAware;
import org.springframework.context.i18n.LocaleContextHolder;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Answers the exceptions of zklock that reach a controller, in Spring MVC and in Spring
 * WebFlux alike, with a status a client can act on and an RFC 9457 problem detail:
 * <ul>
 * <li>{@link LockTimeoutException}: {@code 423 Locked}, with the {@code key} and the
 * {@code waitTime}; the same request may succeed once the holder is done.</li>
 * <li>{@link LockLostException}: {@code 503 Service Unavailable}, with the {@code key}; the
 * call's outcome is unknown.</li>
 * <li>{@link NotLeaderException} and {@link LeadershipLostException}: {@code 503}, with the
 * {@code group} (and the {@code epoch} of the term that ended); another instance may serve
 * the request.</li>
 * <li>any other {@link ZkLockException}, ZooKeeper unreachable among them: {@code 503}.</li>
 * </ul>
 * Each problem's {@code type} is a {@code urn:zklock:} name (an identifier, not a link).
 * Type, title and detail can be replaced through the application's {@link MessageSource} with
 * Spring's codes ({@code problemDetail.type.<exception class>},
 * {@code problemDetail.title.<exception class>}, {@code problemDetail.<exception class>}), the
 * detail's arguments being the key (or group) and the wait time (or epoch).
 * <p>
 * Ordered last, so that an application's own {@code @ExceptionHandler} for these exceptions,
 * in any {@code @ControllerAdvice}, wins.
 *
 * @since 0.2.0
 */
@RestControllerAdvice
@Order(Ordered.LOWEST_PRECEDENCE)
public class ZkLockExceptionHandler implements MessageSourceAware {

	/**
	 * Type of the problem answered for a {@link LockTimeoutException}.
	 */
	public static final URI LOCK_TIMEOUT = URI.create("urn:zklock:lock-timeout");

	/**
	 * Type of the problem answered for a {@link LockLostException}.
	 */
	public static final URI LOCK_LOST = URI.create("urn:zklock:lock-lost");

	/**
	 * Type of the problem answered for a {@link NotLeaderException}.
	 */
	public static final URI NOT_LEADER = URI.create("urn:zklock:not-leader");

	/**
	 * Type of the problem answered for a {@link LeadershipLostException}.
	 */
	public static final URI LEADERSHIP_LOST = URI.create("urn:zklock:leadership-lost");

	/**
	 * Type of the problem answered for any other {@link ZkLockException}.
	 */
	public static final URI UNAVAILABLE = URI.create("urn:zklock:unavailable");

	private @Nullable MessageSource messageSource;

	@Override
	public void setMessageSource(MessageSource messageSource) {
		this.messageSource = messageSource;
	}

	@ExceptionHandler
	public ResponseEntity<ProblemDetail> handleLockTimeout(LockTimeoutException ex) {
		String waitTime = ex.getWaitTime().toMillis() + "ms";
		return respond(ErrorResponse.builder(ex, HttpStatus.LOCKED, String.valueOf(ex.getMessage()))
			.type(LOCK_TIMEOUT)
			.title("Lock busy")
			.property("key", ex.getKey())
			.property("waitTime", waitTime)
			.detailMessageArguments(ex.getKey(), waitTime));
	}

	@ExceptionHandler
	public ResponseEntity<ProblemDetail> handleLockLost(LockLostException ex) {
		return respond(ErrorResponse.builder(ex, HttpStatus.SERVICE_UNAVAILABLE, String.valueOf(ex.getMessage()))
			.type(LOCK_LOST)
			.title("Lock lost")
			.property("key", ex.getKey())
			.detailMessageArguments(ex.getKey()));
	}

	@ExceptionHandler
	public ResponseEntity<ProblemDetail> handleLeadershipLost(LeadershipLostException ex) {
		return respond(ErrorResponse.builder(ex, HttpStatus.SERVICE_UNAVAILABLE, String.valueOf(ex.getMessage()))
			.type(LEADERSHIP_LOST)
			.title("Leadership lost")
			.property("group", ex.getGroup())
			.property("epoch", ex.getEpoch())
			.detailMessageArguments(ex.getGroup(), ex.getEpoch()));
	}

	@ExceptionHandler
	public ResponseEntity<ProblemDetail> handleNotLeader(NotLeaderException ex) {
		return respond(ErrorResponse.builder(ex, HttpStatus.SERVICE_UNAVAILABLE, String.valueOf(ex.getMessage()))
			.type(NOT_LEADER)
			.title("Not the leader")
			.property("group", ex.getGroup())
			.detailMessageArguments(ex.getGroup()));
	}

	@ExceptionHandler
	public ResponseEntity<ProblemDetail> handleZkLockException(ZkLockException ex) {
		return respond(ErrorResponse.builder(ex, HttpStatus.SERVICE_UNAVAILABLE, String.valueOf(ex.getMessage()))
			.type(UNAVAILABLE)
			.title("Lock service unavailable"));
	}

	private ResponseEntity<ProblemDetail> respond(ErrorResponse.Builder builder) {
		Locale locale = LocaleContextHolder.getLocale();
		ErrorResponse response = (this.messageSource != null) ? builder.build(this.messageSource, locale)
				: builder.build();
		return ResponseEntity.status(response.getStatusCode()).headers(response.getHeaders()).body(response.getBody());
	}

}
