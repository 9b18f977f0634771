package dev.zklock;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * An executor that runs a task on the calling thread when its delegate refuses it (at shutdown),
 * so that an asynchronous call always ends and its locks are always released.
 */
record SafeExecutor(Executor delegate) implements Executor {

	@Override
	public void execute(Runnable task) {
		try {
			this.delegate.execute(task);
		}
		catch (RejectedExecutionException ex) {
			task.run();
		}
	}

}
