package dev.zklock.sample.stock;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.micrometer.context.ContextExecutorService;
import io.micrometer.context.ContextSnapshotFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;
import org.springframework.stereotype.Component;

/**
 * The threads that run the later stages of asynchronous reservations. Their executor is wrapped
 * by Micrometer's Context Propagation: each task captures the context of the code that submits
 * it, the SKU's lock included (zklock's {@code ZkLockThreadLocalAccessor} is registered with it),
 * and runs in it.
 * <p>
 * Not an {@code Executor} bean: one would make Spring Boot back off from its
 * {@code applicationTaskExecutor}, which runs the bodies of the asynchronous locked calls.
 */
@Component
class StockStages implements DisposableBean {

	private static final int THREADS = 4;

	private final ExecutorService threads = Executors.newFixedThreadPool(THREADS,
			new CustomizableThreadFactory("stock-stage-"));

	private final Executor propagating = ContextExecutorService.wrap(this.threads,
			ContextSnapshotFactory.builder().build());

	/**
	 * Return the executor for later stages: it captures the context at each submit.
	 * @return the executor
	 */
	Executor executor() {
		return this.propagating;
	}

	@Override
	public void destroy() {
		this.threads.shutdownNow();
	}

}
