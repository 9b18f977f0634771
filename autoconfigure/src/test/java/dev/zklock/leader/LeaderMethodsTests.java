package dev.zklock.leader;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.zklock.annotation.WhenNotLeader;
import dev.zklock.annotation.ZkLeader;
import org.junit.jupiter.api.Test;

import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Resolving {@code @ZkLeader} into specs.
 */
class LeaderMethodsTests {

	private final Map<String, String> placeholders = Map.of("${jobs.group}", "nightly", "${empty.group}", "");

	private final LeaderMethods methods = new LeaderMethods("inventory",
			(value) -> this.placeholders.getOrDefault(value, value));

	@Test
	void aliasesAndDefaults() {
		assertThat(spec(Service.class, "byValue")).isEqualTo(new LeaderSpec("jobs", WhenNotLeader.SKIP));
		assertThat(spec(Service.class, "byGroup")).isEqualTo(new LeaderSpec("jobs", WhenNotLeader.THROW));
		assertThat(spec(Service.class, "defaultGroup")).isEqualTo(new LeaderSpec("inventory", WhenNotLeader.SKIP));
		assertThat(spec(Service.class, "placeholder")).isEqualTo(new LeaderSpec("nightly", WhenNotLeader.SKIP));
		assertThat(spec(Service.class, "unannotated")).isNull();
	}

	@Test
	void metaAnnotation() {
		assertThat(spec(Service.class, "meta")).isEqualTo(new LeaderSpec("reports", WhenNotLeader.THROW));
	}

	@Test
	void methodAnnotationWinsOverClassAnnotation() {
		assertThat(spec(ClassLevel.class, "covered")).isEqualTo(new LeaderSpec("jobs", WhenNotLeader.THROW));
		assertThat(spec(ClassLevel.class, "own")).isEqualTo(new LeaderSpec("other", WhenNotLeader.SKIP));
	}

	@Test
	void classAnnotationCoversPublicInstanceMethodsOnly() {
		assertThat(spec(ClassLevel.class, "notPublic")).isNull();
		assertThat(spec(ClassLevel.class, "utility")).isNull();
		assertThat(spec(ClassLevel.class, "toString")).isNull();
		assertThat(spec(ClassLevel.class, "hashCode")).isNull();
		Method equals = ReflectionUtils.findMethod(ClassLevel.class, "equals", Object.class);
		assertThat(this.methods.specFor(equals, ClassLevel.class)).isNull();
		assertThat(spec(ClassLevel.class, "inherited")).isEqualTo(new LeaderSpec("jobs", WhenNotLeader.THROW));
	}

	@Test
	void annotationOnAnInterfaceMethodAppliesToItsImplementation() {
		Method method = ReflectionUtils.findMethod(Job.class, "run");
		assertThat(this.methods.specFor(method, JobImpl.class)).isEqualTo(new LeaderSpec("jobs", WhenNotLeader.SKIP));
	}

	@Test
	void specsAreResolvedOnce() {
		Method method = method(Service.class, "byValue");
		assertThat(this.methods.specFor(method, Service.class)).isSameAs(this.methods.specFor(method, Service.class));
	}

	@Test
	void groupsAreReportedOnceEachToEveryListener() {
		List<String> early = new ArrayList<>();
		List<String> late = new ArrayList<>();
		this.methods.onGroup(early::add);
		spec(Service.class, "byValue");
		spec(Service.class, "byGroup");
		spec(Service.class, "defaultGroup");
		this.methods.onGroup(late::add);
		spec(Service.class, "meta");
		assertThat(early).containsExactly("jobs", "inventory", "reports");
		assertThat(late).containsExactly("jobs", "inventory", "reports");
	}

	@Test
	void invalidGroups() {
		assertThatIllegalArgumentException().isThrownBy(() -> spec(Invalid.class, "slash"))
			.withMessage("the group name 'a/b' contains '/'; a group is one ZooKeeper node under "
					+ "zklock.leader.base-path");
		assertThatIllegalArgumentException().isThrownBy(() -> spec(Invalid.class, "dot"))
			.withMessageStartingWith("the group name '.' is not a valid ZooKeeper node name");
		assertThatIllegalArgumentException().isThrownBy(() -> spec(Invalid.class, "empty"))
			.withMessage("the group name is empty");
	}

	private LeaderSpec spec(Class<?> type, String name) {
		return this.methods.specFor(method(type, name), type);
	}

	private static Method method(Class<?> type, String name) {
		Method method = ReflectionUtils.findMethod(type, name);
		assertThat(method).as(name).isNotNull();
		return method;
	}

	@Target(ElementType.METHOD)
	@Retention(RetentionPolicy.RUNTIME)
	@ZkLeader(group = "reports", whenNotLeader = WhenNotLeader.THROW)
	@interface ReportsLeaderOnly {

	}

	static class Service {

		@ZkLeader("jobs")
		public void byValue() {
		}

		@ZkLeader(group = "jobs", whenNotLeader = WhenNotLeader.THROW)
		public void byGroup() {
		}

		@ZkLeader
		public void defaultGroup() {
		}

		@ZkLeader("${jobs.group}")
		public void placeholder() {
		}

		@ReportsLeaderOnly
		public void meta() {
		}

		public void unannotated() {
		}

	}

	static class Base {

		public void inherited() {
		}

	}

	@ZkLeader(group = "jobs", whenNotLeader = WhenNotLeader.THROW)
	static class ClassLevel extends Base {

		public void covered() {
		}

		@ZkLeader("other")
		public void own() {
		}

		void notPublic() {
		}

		public static void utility() {
		}

		@Override
		public String toString() {
			return "ClassLevel";
		}

		@Override
		public boolean equals(Object other) {
			return this == other;
		}

		@Override
		public int hashCode() {
			return 1;
		}

	}

	interface Job {

		@ZkLeader("jobs")
		void run();

	}

	static class JobImpl implements Job {

		@Override
		public void run() {
		}

	}

	static class Invalid {

		@ZkLeader("a/b")
		public void slash() {
		}

		@ZkLeader(".")
		public void dot() {
		}

		@ZkLeader("${empty.group}")
		public void empty() {
		}

	}

}
