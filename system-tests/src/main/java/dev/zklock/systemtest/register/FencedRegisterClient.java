package dev.zklock.systemtest.register;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Reads and writes the counters of a {@link FencedRegister} from an application process, each
 * access carrying the fencing token of the lock it is made under.
 */
public final class FencedRegisterClient {

	private final URI uri;

	private final Duration timeout;

	private final HttpClient http;

	/**
	 * Create a client with a timeout of 5 seconds per access.
	 * @param uri the register's address, as {@link FencedRegister#uri()} gives it
	 */
	public FencedRegisterClient(URI uri) {
		this(uri, Duration.ofSeconds(5));
	}

	/**
	 * Create a client.
	 * @param uri the register's address, as {@link FencedRegister#uri()} gives it
	 * @param timeout the time to wait for each access
	 */
	public FencedRegisterClient(URI uri, Duration timeout) {
		this.uri = uri;
		this.timeout = timeout;
		this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout).build();
	}

	/**
	 * Read a counter under an exclusive lock.
	 * @param register the counter's name
	 * @param token the lock's fencing token
	 * @return the value
	 * @throws FenceRejectedException if a later token was served already
	 * @throws UncheckedIOException if the register could not be reached in time
	 */
	public long read(String register, long token) {
		return call(register, token, "read?token=" + token + "&access=exclusive");
	}

	/**
	 * Read a counter under a shared lock.
	 * @param register the counter's name
	 * @param token the lock's fencing token
	 * @return the value
	 * @throws FenceRejectedException if a later exclusive token was served already
	 * @throws UncheckedIOException if the register could not be reached in time
	 */
	public long sharedRead(String register, long token) {
		return call(register, token, "read?token=" + token + "&access=shared");
	}

	/**
	 * Write a counter under an exclusive lock.
	 * @param register the counter's name
	 * @param token the lock's fencing token
	 * @param value the new value
	 * @throws FenceRejectedException if a later token was served already
	 * @throws UncheckedIOException if the register could not be reached in time
	 */
	public void write(String register, long token, long value) {
		call(register, token, "write?token=" + token + "&value=" + value);
	}

	/**
	 * Read a counter without the fence: only the lock protects it.
	 * @param register the counter's name
	 * @return the value
	 * @throws UncheckedIOException if the register could not be reached in time
	 */
	public long unfencedRead(String register) {
		return call(register, 0, "read?token=0&access=none");
	}

	/**
	 * Write a counter without the fence: only the lock protects it.
	 * @param register the counter's name
	 * @param value the new value
	 * @throws UncheckedIOException if the register could not be reached in time
	 */
	public void unfencedWrite(String register, long value) {
		call(register, 0, "write?token=0&access=none&value=" + value);
	}

	private long call(String register, long token, String operation) {
		HttpRequest request = HttpRequest.newBuilder(this.uri.resolve("registers/" + register + "/" + operation))
			.timeout(this.timeout)
			.POST(HttpRequest.BodyPublishers.noBody())
			.build();
		HttpResponse<String> response;
		try {
			response = this.http.send(request, HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not reach register '" + register + "'", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while calling register '" + register + "'", ex);
		}
		return switch (response.statusCode()) {
			case 200 -> Long.parseLong(response.body());
			case 409 -> throw new FenceRejectedException(register, token, Long.parseLong(response.body()));
			default -> throw new IllegalStateException(
					"Register '" + register + "' answered " + response.statusCode() + ": " + response.body());
		};
	}

}
