package dev.zklock.sample;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A small HTTP client for one running instance of the sample, on the loopback address.
 */
final class Http {

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	private static final JsonMapper json = JsonMapper.builder().build();

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

	private final String base;

	Http(int port) {
		this.base = "http://127.0.0.1:" + port;
	}

	Response get(String path) {
		return send(HttpRequest.newBuilder(URI.create(this.base + path)).GET());
	}

	Response post(String path) {
		return send(HttpRequest.newBuilder(URI.create(this.base + path)).POST(HttpRequest.BodyPublishers.noBody()));
	}

	private Response send(HttpRequest.Builder request) {
		try {
			HttpResponse<String> response = this.client.send(request.timeout(TIMEOUT).build(),
					HttpResponse.BodyHandlers.ofString());
			return new Response(response.statusCode(), json.readTree(response.body()));
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * A response: its status and its JSON body.
	 */
	record Response(int status, JsonNode body) {

		String text(String field) {
			return this.body.path(field).asString();
		}

		long number(String field) {
			return this.body.path(field).asLong();
		}

	}

}
