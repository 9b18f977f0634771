package dev.zklock.autoconfigure;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

class ConnectStringsTests {

	@ParameterizedTest
	@ValueSource(strings = { "localhost:2181", "zk1:2181,zk2:2181,zk3:2181", "127.0.0.1:1", "zk1", "zk1:2181/app",
			"[::1]:2181", "zk1:2181, zk2:2182" })
	void acceptsWellFormedConnectStrings(String connectString) {
		assertThatNoException().isThrownBy(() -> ConnectStrings.validate(connectString));
	}

	@ParameterizedTest
	@ValueSource(strings = { "", " ", "zk1:abc", "zk1:2181,", ":2181", "zk1:0", "zk1:70000", "zk1:2181/app/",
			"::1:2181" })
	void rejectsMalformedConnectStrings(String connectString) {
		assertThatExceptionOfType(InvalidConnectStringException.class)
			.isThrownBy(() -> ConnectStrings.validate(connectString))
			.withMessageContaining("'" + connectString + "'");
	}

}
