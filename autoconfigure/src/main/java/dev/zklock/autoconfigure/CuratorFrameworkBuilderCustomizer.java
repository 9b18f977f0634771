package dev.zklock.autoconfigure;

import org.apache.curator.framework.CuratorFrameworkFactory;

/**
 * Callback to customize the {@link CuratorFrameworkFactory.Builder} of the auto-configured
 * client after the {@code zklock.*} properties have been applied. Customizers are applied in
 * their {@link org.springframework.core.Ordered order}.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface CuratorFrameworkBuilderCustomizer {

	/**
	 * Customize the builder.
	 * @param builder the builder to customize
	 */
	void customize(CuratorFrameworkFactory.Builder builder);

}
