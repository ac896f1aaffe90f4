# The Swift test suites' three phases, shared by scripts/test and scripts/stress-test.
#
# Three phases in one build: first the pure and in-process suites (CPU-bound property tests
# among them), then the suites that talk to real servers over loopback sockets, then the
# suites that load the server on purpose (a 100,000-item list, heavy requests), alone. Run
# together, the CPU-bound tests occupy the cooperative threads that the in-process servers'
# handlers need: slower, never wrong (every wait is on an event, with a hang guard only), but
# the phases keep the run short.
servers='MicroHTTPTests|DiffableWebTests\.Live|DiffableWebPostgresTests\.Live|DiffableWebCommandsTests\.Live'
heavy='DiffableWebTests\.LiveHeavyTests'

# run_phase NAME ARGS...: `swift test --skip-build ARGS`, its log in .build/test-NAME.log;
# exits the script when a test fails.
run_phase() {
    local name="$1"; shift
    echo "== swift test ($name)"
    local started=$SECONDS
    set +e
    swift test --skip-build "$@" 2>&1 | tee ".build/test-$name.log" | grep -vE '^(◇|↳|✔ Test "|Test Case .* (started|passed))'
    local status=${PIPESTATUS[0]}
    set -e
    echo "== swift test ($name): $((SECONDS - started)) s"
    if [ "$status" -ne 0 ] || grep -q "^✘" ".build/test-$name.log"; then
        echo "error: swift test ($name) failed (exit $status)" >&2
        exit 1
    fi
}

run_swift_phases() {
    run_phase units --skip "$servers"
    run_phase servers --filter "$servers" --skip "$heavy"
    run_phase heavy --filter "$heavy"
}
