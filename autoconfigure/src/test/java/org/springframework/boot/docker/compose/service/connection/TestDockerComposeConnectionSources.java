package org.springframework.boot.docker.compose.service.connection;

import org.springframework.boot.docker.compose.core.RunningService;
import org.springframework.core.env.Environment;

/**
 * Creates the {@link DockerComposeConnectionSource} that Spring Boot passes to connection
 * details factories for a running Docker Compose service (its constructor is not public).
 */
public final class TestDockerComposeConnectionSources {

	private TestDockerComposeConnectionSources() {
	}

	public static DockerComposeConnectionSource of(RunningService service, Environment environment) {
		return new DockerComposeConnectionSource(service, environment);
	}

}
