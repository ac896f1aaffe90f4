# DiffableWeb — the two commands that matter: `make run` and `make test`.
.PHONY: run test deps bench bench-core bench-layout bench-http tsan

run:
	scripts/run $(ARGS)

test:
	scripts/test

deps:
	scripts/deps

# Release-mode benchmarks (not part of `make test`). Results: BENCHMARKS.md.
bench: bench-core bench-layout bench-http

bench-core: deps
	swift run -c release --package-path Benchmarks --scratch-path .build-bench-core CoreBenchmarks $(ARGS)

bench-layout: deps
	swift run -c release --package-path Benchmarks --scratch-path .build-bench-layout LayoutBenchmarks $(ARGS)

bench-http:
	scripts/deps --bench
	scripts/bench-http $(ARGS)

# The Swift test suites under ThreadSanitizer.
tsan: deps
	swift test --sanitize=thread --scratch-path .build-tsan
