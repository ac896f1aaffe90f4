# DiffableWeb — the two commands that matter: `make run` and `make test`.
.PHONY: run test screenshots deps bench bench-core bench-floor bench-layout bench-http bench-web bench-cluster tsan

run:
	scripts/run $(ARGS)

test:
	scripts/test

# Refreshes the tracked screenshots (docs/screenshots) on purpose; `make test` never writes them.
screenshots:
	scripts/screenshots $(ARGS)

deps:
	scripts/deps

# Release-mode benchmarks (not part of `make test`). Results: BENCHMARKS.md (today's table) and docs/benchmarks-history.md.
bench: bench-core bench-layout bench-http bench-web bench-cluster

bench-core: deps
	swift run -c release --package-path Benchmarks --scratch-path .build-bench CoreBenchmarks $(ARGS)

# The least a keystroke must do (issue 37), on events captured from the release server.
bench-floor: deps
	swift build -c release --product diffable-web
	python3 Benchmarks/web/keystroke_cpu.py --capture .build-bench/keystroke-events.bin --build main=.build/release/diffable-web
	swift run -c release --package-path Benchmarks --scratch-path .build-bench KeystrokeFloor .build-bench/keystroke-events.bin $(ARGS)

bench-layout: deps
	swift run -c release --package-path Benchmarks --scratch-path .build-bench LayoutBenchmarks $(ARGS)

bench-http:
	scripts/deps --bench
	scripts/bench-http $(ARGS)

# Keystroke -> event latency of the Mountains search (release server, 10,000 mountains).
bench-web:
	scripts/deps --bench
	swift build -c release --product diffable-web
	[ -x .venv/bin/python ] || python3 -m venv .venv
	.venv/bin/pip install -q uvloop
	.venv/bin/python Benchmarks/web/keystroke_latency.py --binary .build/release/diffable-web $(ARGS)

# The session store and several nodes: memory only, SQLite, PostgreSQL, 3 nodes behind nginx.
bench-cluster:
	scripts/deps --bench
	swift build -c release --product diffable-web-postgres
	python3 Benchmarks/web/cluster_bench.py --binary .build/release/diffable-web-postgres $(ARGS)

# The Swift test suites under ThreadSanitizer.
tsan: deps
	swift test --sanitize=thread --scratch-path .build-tsan
