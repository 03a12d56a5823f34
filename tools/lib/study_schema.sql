-- SPDX-License-Identifier: GPL-2.0
--
-- The clkstat study file: an SQLite database (3.37 or later: STRICT
-- tables) holding what a snapshot file holds
-- (Documentation/clkstat-snapshot.rst): the metadata, the runs, their
-- histograms, counters and tags, and each run's event log, so that a
-- reader takes one run's events at a time instead of parsing the whole
-- recording.  tools/lib/study_write.c creates it with this text (the
-- Makefile embeds it); Documentation/clkstat-study.rst says what the
-- reader checks.
--
-- Conventions.  A u64 of the model (counts' sums, counters, min and max,
-- event timestamps, correlation ids, latencies, lost events) is stored
-- as the INTEGER with the same 64 bits: values of 2^63 and above read
-- as negative numbers in SQL, and the tools convert them back.  No real
-- timestamp, latency or ns value comes near 2^63 (292 years).  Names are
-- TEXT as the snapshot has them; NULL is "unknown" wherever the model
-- has an unknown, and only there (NOT NULL elsewhere).  Orders that a
-- snapshot keeps (parameters, tags, metrics, counters) are a pos column.

-- "clks": the file is a clkstat study (sqlite3 FILE 'PRAGMA
-- application_id' prints 1668049779), whatever its name.
PRAGMA application_id = 1668049779;
-- The schema's version: a reader refuses a newer one.  2 added meta's
-- cpufreq columns; a reader takes a version 1 study as one that did not
-- record them (cpufreq_recorded 0), and --append leaves its version be.
PRAGMA user_version = 2;

-- Where and how the runs were taken (struct cr_meta): one row, id 1.
CREATE TABLE meta (
	id               INTEGER PRIMARY KEY CHECK (id = 1),
	tool_version     TEXT,
	module_version   TEXT,
	kernel_release   TEXT,
	clocksource      TEXT,
	clock            TEXT,		-- the probes' timestamps' clock
	probes           TEXT,
	variants         TEXT,		-- comma separated, as --variants
	command          TEXT,		-- the workload; NULL: none
	machine          TEXT,		-- "vm" or "bare-metal"
	hypervisor       TEXT,
	cpuidle_driver   TEXT,
	cpuidle_governor TEXT,
	max_cstate       TEXT,
	cmdline          TEXT,		-- /proc/cmdline
	conditions       TEXT,		-- record --cstates, --load
	host             TEXT,		-- gethostname()
	cpufreq_driver   TEXT,		-- scaling_driver; NULL: no cpufreq
	cpufreq_governor TEXT,		-- one, or "GOV:CPUS GOV:CPUS ..."
	cpufreq_boost    TEXT,		-- "1", "0"; NULL: no boost control
	frac_bits        INTEGER NOT NULL CHECK (frac_bits BETWEEN 0 AND 5),
	nr_cpus          INTEGER NOT NULL
			 CHECK (nr_cpus BETWEEN 0 AND 4294967295),
	duration_s       REAL NOT NULL CHECK (duration_s >= 0),
	events           INTEGER NOT NULL	-- record --events N; 0: none
			 CHECK (events BETWEEN 0 AND 4294967295),
	-- 0: the cpufreq columns were not recorded (an older recording
	-- imported), and are NULL
	cpufreq_recorded INTEGER NOT NULL CHECK (cpufreq_recorded IN (0, 1)),
	CHECK (cpufreq_recorded OR (cpufreq_driver IS NULL AND
	       cpufreq_governor IS NULL AND cpufreq_boost IS NULL))
) STRICT;

-- The module's parameters as loaded (/sys/module/clkstat/parameters).
CREATE TABLE meta_params (
	pos   INTEGER PRIMARY KEY CHECK (pos >= 0),
	name  TEXT NOT NULL UNIQUE CHECK (name <> ''),
	value TEXT NOT NULL
) STRICT;

-- The file's tags (record --tag KEY=VALUE), in the order given.
CREATE TABLE meta_tags (
	pos   INTEGER PRIMARY KEY CHECK (pos >= 0),
	name  TEXT NOT NULL UNIQUE CHECK (name <> ''),
	value TEXT NOT NULL CHECK (value <> '')
) STRICT;

-- The event types' names (kmod/uapi/clkstat_catalog.h) by the numbers
-- events.type holds, as the writer numbered them.
CREATE TABLE event_types (
	type INTEGER PRIMARY KEY CHECK (type BETWEEN 0 AND 255),
	name TEXT NOT NULL UNIQUE
) STRICT;

-- Every slot's bounds in ns for each frac_bits, written from the bucket
-- math itself (kmod/uapi/clkstat_buckets.h: clkstat_slot_lower(),
-- clkstat_slot_upper(), clkstat_slot_sum_shift()), so that SQL and
-- pandas turn slots into latencies without a copy of it: lower and
-- upper are the smallest and largest value of the slot (the last
-- slot's upper is 2^64 - 1, read as -1), and a slot's samples add up to
-- slots.sum << sum_shift ns.  clkstat-report does not read this table.
CREATE TABLE slot_bounds (
	frac_bits INTEGER NOT NULL CHECK (frac_bits BETWEEN 0 AND 5),
	slot      INTEGER NOT NULL CHECK (slot >= 0),
	lower     INTEGER NOT NULL,	-- ns, u64
	upper     INTEGER NOT NULL,	-- ns, u64
	sum_shift INTEGER NOT NULL CHECK (sum_shift BETWEEN 0 AND 63),
	PRIMARY KEY (frac_bits, slot)
) STRICT, WITHOUT ROWID;

-- The runs, in recording order (struct cr_run).  A run's events are the
-- rows first_event to last_event of events (rowids, one transaction per
-- run writes them in a row): reading a run's events is a range scan of
-- the table itself, with no index to build or store.  clock0 and clock1
-- are the clock pairs taken at the run's start and end (NULL: none).
CREATE TABLE runs (
	run                INTEGER PRIMARY KEY CHECK (run >= 0),
	variant            TEXT NOT NULL CHECK (variant <> ''),
	start_ns           INTEGER NOT NULL CHECK (start_ns >= 0),
	end_ns             INTEGER NOT NULL CHECK (end_ns >= 0),
	exit_status        INTEGER NOT NULL
			   CHECK (exit_status BETWEEN -1 AND 255),
	workload_only      INTEGER CHECK (workload_only IN (0, 1)),
	events_present     INTEGER NOT NULL CHECK (events_present IN (0, 1)),
	events_n           INTEGER NOT NULL CHECK (events_n >= 0),
	events_lost        INTEGER NOT NULL,	-- u64
	first_event        INTEGER,
	last_event         INTEGER,
	clock0_mono_ns     INTEGER CHECK (clock0_mono_ns >= 0),
	clock0_realtime_ns INTEGER CHECK (clock0_realtime_ns >= 0),
	clock1_mono_ns     INTEGER CHECK (clock1_mono_ns >= 0),
	clock1_realtime_ns INTEGER CHECK (clock1_realtime_ns >= 0),
	CHECK ((first_event IS NULL) = (events_n = 0)),
	CHECK (last_event - first_event + 1 = events_n),
	CHECK (events_present OR
	       (events_n = 0 AND events_lost = 0 AND clock0_mono_ns IS NULL)),
	CHECK ((clock0_mono_ns IS NULL) = (clock0_realtime_ns IS NULL)),
	CHECK ((clock1_mono_ns IS NULL) = (clock1_realtime_ns IS NULL)),
	CHECK (clock0_mono_ns IS NOT NULL OR clock1_mono_ns IS NULL)
) STRICT;

-- A run's own tags (record --cstates, --load), in the order added.
CREATE TABLE run_tags (
	run   INTEGER NOT NULL REFERENCES runs (run),
	pos   INTEGER NOT NULL CHECK (pos >= 0),
	name  TEXT NOT NULL CHECK (name <> ''),
	value TEXT NOT NULL CHECK (value <> ''),
	PRIMARY KEY (run, pos),
	UNIQUE (run, name)
) STRICT, WITHOUT ROWID;

-- A run's metrics, in the run's order (pos); created_ns: CLOCK_REALTIME
-- when its values began, 0: unknown (snapshot files do not keep it).
CREATE TABLE metrics (
	metric     INTEGER PRIMARY KEY,
	run        INTEGER NOT NULL REFERENCES runs (run),
	pos        INTEGER NOT NULL CHECK (pos >= 0),
	name       TEXT NOT NULL CHECK (name <> ''),
	variant    TEXT NOT NULL CHECK (variant <> ''),
	frac_bits  INTEGER NOT NULL CHECK (frac_bits BETWEEN 0 AND 5),
	recording  INTEGER NOT NULL CHECK (recording IN (0, 1)),
	created_ns INTEGER NOT NULL CHECK (created_ns >= 0),
	UNIQUE (run, pos),
	UNIQUE (run, name, variant)
) STRICT;

-- A metric's counters (all CPUs), in the metric's order.
CREATE TABLE counters (
	metric INTEGER NOT NULL REFERENCES metrics (metric),
	pos    INTEGER NOT NULL CHECK (pos BETWEEN 0 AND 7),
	name   TEXT NOT NULL CHECK (name <> ''),
	value  INTEGER NOT NULL,	-- u64
	PRIMARY KEY (metric, pos),
	UNIQUE (metric, name)
) STRICT, WITHOUT ROWID;

-- A metric's histograms: the sum over its CPUs (cpu -1, always there,
-- empty or not), and one per CPU that has samples.  min and max: NULL
-- when the histogram is empty, else the smallest and largest sample.
CREATE TABLE hists (
	hist   INTEGER PRIMARY KEY,
	metric INTEGER NOT NULL REFERENCES metrics (metric),
	cpu    INTEGER NOT NULL CHECK (cpu BETWEEN -1 AND 4294967294),
	min    INTEGER,	-- u64
	max    INTEGER,	-- u64
	UNIQUE (metric, cpu),
	CHECK ((min IS NULL) = (max IS NULL))
) STRICT;

-- A histogram's non-empty slots (kmod/uapi/clkstat_buckets.h: slot,
-- its count, and the sum of its samples, each shifted right by the
-- slot's clkstat_slot_sum_shift()).
CREATE TABLE slots (
	hist  INTEGER NOT NULL REFERENCES hists (hist),
	slot  INTEGER NOT NULL CHECK (slot >= 0),
	count INTEGER NOT NULL CHECK (count > 0),
	sum   INTEGER NOT NULL,	-- u64
	PRIMARY KEY (hist, slot)
) STRICT, WITHOUT ROWID;

-- The event logs (struct clkstat_event_rec, kmod/uapi/clkstat_events.h),
-- run after run, each run's in time order.  latency and rq_clock are
-- NULL where the event has none (its flags); migrated is 1 or 0 where
-- known (enqueue, first_tkread), else NULL; text NULL for none.  No
-- REFERENCES and no index: each would cost every insert a lookup, and
-- runs.first_event and last_event find a run's rows.
CREATE TABLE events (
	run      INTEGER NOT NULL,
	ts       INTEGER NOT NULL,	-- CLOCK_MONOTONIC ns, u64
	type     INTEGER NOT NULL,	-- event_types.type
	cpu      INTEGER NOT NULL,
	pid      INTEGER NOT NULL,
	corr     INTEGER NOT NULL,	-- u64, 0: none
	latency  INTEGER,		-- ns, u64
	migrated INTEGER,
	rq_clock INTEGER,		-- ns, u64
	text     TEXT
) STRICT;

-- Every event with its run's variant and its type's name.
CREATE VIEW events_v AS
	SELECT e.rowid AS event, e.run, r.variant, e.ts, t.name AS type,
	       e.cpu, e.pid, e.corr, e.latency, e.migrated, e.rq_clock,
	       e.text
	FROM events AS e
	JOIN runs AS r ON r.run = e.run
	JOIN event_types AS t ON t.type = e.type;

-- Per run and metric, the all-CPU histogram's samples, min and max: e.g.
-- SELECT run, run_variant, samples FROM run_samples
--   WHERE metric = 'ttwu_tkread';
CREATE VIEW run_samples AS
	SELECT r.run, r.variant AS run_variant, m.name AS metric,
	       m.variant, m.frac_bits,
	       (SELECT coalesce(sum(s.count), 0) FROM slots AS s
		WHERE s.hist = h.hist) AS samples,
	       h.min, h.max
	FROM runs AS r
	JOIN metrics AS m ON m.run = r.run
	JOIN hists AS h ON h.metric = m.metric AND h.cpu = -1;
