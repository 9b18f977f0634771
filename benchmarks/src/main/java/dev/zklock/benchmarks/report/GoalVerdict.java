package dev.zklock.benchmarks.report;

/**
 * How a measured ratio stands against a goal: met where its whole interval is on the goal's
 * side, missed where it is wholly on the other, and otherwise what keeps the run from telling.
 */
enum GoalVerdict {

	/** The whole interval is on the goal's side. */
	MET("**met**"),

	/** The whole interval is on the other side. */
	MISSED("**missed**"),

	/** The forks of the row and of its baseline overlap: the run cannot tell them apart. */
	NO_DIFFERENCE("no difference"),

	/** The interval reaches across the goal. */
	UNDECIDED("not decided: the interval reaches across the goal"),

	/** One fork on a side: no interval. */
	ONE_FORK("one fork: no interval, no verdict");

	private final String text;

	GoalVerdict(String text) {
		this.text = text;
	}

	/**
	 * Judge a ratio that should be at least the goal.
	 */
	static GoalVerdict atLeast(Ratio ratio, double goal) {
		if (!ratio.hasInterval()) {
			return ONE_FORK;
		}
		if (goal > 1 && !ratio.differs()) {
			return NO_DIFFERENCE;
		}
		if (ratio.low() >= goal) {
			return MET;
		}
		return (ratio.high() < goal) ? MISSED : UNDECIDED;
	}

	/**
	 * Judge a ratio that should be at most the goal; overlapping forks meet a goal above 1×.
	 */
	static GoalVerdict atMost(Ratio ratio, double goal) {
		if (!ratio.hasInterval()) {
			return ONE_FORK;
		}
		if (ratio.high() <= goal) {
			return MET;
		}
		return (ratio.low() > goal) ? MISSED : UNDECIDED;
	}

	/**
	 * Judge values, one per fork, that should each be at least the goal.
	 */
	static GoalVerdict everyAtLeast(Spread values, double goal) {
		if (values.count() < 2) {
			return ONE_FORK;
		}
		if (values.min() >= goal) {
			return MET;
		}
		return (values.median() < goal) ? MISSED : UNDECIDED;
	}

	/**
	 * Judge values, one per fork, that should each be at most the goal.
	 */
	static GoalVerdict everyAtMost(Spread values, double goal) {
		if (values.count() < 2) {
			return ONE_FORK;
		}
		if (values.max() <= goal) {
			return MET;
		}
		return (values.median() > goal) ? MISSED : UNDECIDED;
	}

	String text() {
		return this.text;
	}

	/**
	 * Return the verdict as the report shows it: where the row or its baseline ran while the
	 * machine was busy, {@code busy}, with what the figures alone would say.
	 */
	String text(boolean busy) {
		return busy ? busy(this.text) : this.text;
	}

	static String busy(String figuresAlone) {
		return "**busy**: not for comparison (the figures alone: " + figuresAlone.replace("**", "") + ")";
	}

}
