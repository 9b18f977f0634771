package dev.zklock.autoconfigure.testcontainers;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import com.github.dockerjava.api.exception.NotFoundException;
import dev.zklock.test.testcontainers.ZooKeeperContainer;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.utility.DockerImageName;

/**
 * The local ZooKeeper image that {@code scripts/prepare-docker.sh} builds, which the container
 * tests use in place of the official one; they never pull an image.
 */
public final class LocalZooKeeperImage {

	/**
	 * The image {@code scripts/prepare-docker.sh} builds, for the ZooKeeper version on the class path.
	 */
	public static final DockerImageName NAME = DockerImageName.parse("zookeeper:" + ZooKeeperContainer.zooKeeperVersion() + "-zklock-local")
		.asCompatibleSubstituteFor("zookeeper");

	/**
	 * Return a container of the local image that never pulls an image.
	 * @return the container
	 */
	public static ZooKeeperContainer container() {
		return new ZooKeeperContainer(NAME).withImagePullPolicy((image) -> false).withLoopbackPort(0);
	}

	private LocalZooKeeperImage() {
	}

	/**
	 * Runs a test class only when a Docker engine answers and the local image is built; skips it
	 * with the reason otherwise.
	 */
	@Target(ElementType.TYPE)
	@Retention(RetentionPolicy.RUNTIME)
	@ExtendWith(Condition.class)
	public @interface Required {

	}

	public static final class Condition implements ExecutionCondition {

		private static volatile ConditionEvaluationResult result;

		@Override
		public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
			ConditionEvaluationResult evaluated = result;
			if (evaluated == null) {
				evaluated = evaluate();
				result = evaluated;
			}
			return evaluated;
		}

		private static ConditionEvaluationResult evaluate() {
			if (!DockerClientFactory.instance().isDockerAvailable()) {
				return ConditionEvaluationResult.disabled("Container tests skipped: no Docker engine answers. "
						+ "Run scripts/prepare-docker.sh (as root) to install and start one and build the "
						+ "ZooKeeper image " + NAME + ".");
			}
			try {
				DockerClientFactory.instance().client().inspectImageCmd(NAME.asCanonicalNameString()).exec();
			}
			catch (NotFoundException ex) {
				return ConditionEvaluationResult.disabled("Container tests skipped: the local image " + NAME
						+ " is not built (these tests never pull an image). Run scripts/prepare-docker.sh to build it.");
			}
			return ConditionEvaluationResult.enabled("Docker answers and " + NAME + " is built");
		}

	}

}
