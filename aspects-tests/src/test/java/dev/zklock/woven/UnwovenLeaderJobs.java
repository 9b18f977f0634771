package dev.zklock.woven;

import dev.zklock.annotation.ZkLeader;

/**
 * Leader-only methods through the class's annotation, in a class compiled by javac alone.
 */
@ZkLeader(group = "jobs")
class UnwovenLeaderJobs {

	public void purge() {
	}

}
