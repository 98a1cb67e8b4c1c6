# Deckhand's build. `make run` and `make test` each do their own setup on a
# fresh Debian machine (apt packages for Fyne, Go modules, npm test peers),
# skipping whatever is already there.

SHELL := /bin/bash
GO ?= go
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)
# no_animations: Fyne's text cursor does not blink (its fade redraws the
# window at the frame rate while a box has the focus), so an idle window
# costs no CPU. A plain go build (go install) is as cheap: Deckhand turns
# the animations off at run time (gui/desktop/still.go); the tag also
# leaves Fyne's animation code out. TAGS=blink brings the blinking cursor
# back. testutil.BuildTags says the same for the tests' builds.
TAGS ?= no_animations
BIN := bin/deckhand

# Fyne needs cgo and these headers.
APT_PACKAGES := gcc libgl1-mesa-dev libx11-dev libxcursor-dev libxrandr-dev libxinerama-dev \
	libxi-dev libxxf86vm-dev libwayland-dev libxkbcommon-dev \
	libwebkit2gtk-4.1-dev
# deckhand-view, beside deckhand, shows MCP Apps' views (WebKitGTK).
VIEW_BIN := bin/deckhand-view
# The window's own tests run it on a virtual display; screenshots also
# drive it with xdotool and capture it with ImageMagick.
TEST_APT_PACKAGES := xvfb xauth xdotool xclip openbox imagemagick dunst dbus gnome-keyring openssh-client bsdutils util-linux curl git keyutils
SHOT_APT_PACKAGES := xvfb xauth xdotool imagemagick
# The desktop check runs the tray and notifications on a real session bus:
# a StatusNotifier watcher and tray host, a notification daemon, the bus's
# own tools (dbus-run-session, dbus-monitor, dbus-send), a virtual display,
# xdotool and ImageMagick. `make test` installs them too: its
# TestDesktopTrayAndNotifications once skipped for want of them while the
# tray icon was gone. Outside CI it skips, saying which are missing.
DESKTOP_APT_PACKAGES := dbus xvfb xauth xdotool imagemagick dunst \
	haskell-status-notifier-item-utils haskell-gtk-sni-tray-utils
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
PEERS_STAMP := testutil/node_modules/.deckhand-installed

.PHONY: all run build test vet lint bench fuzz callpath screenshots desktop-check setup setup-apt setup-test-apt setup-go setup-peers clean

all: build

run: build
	./$(BIN) $(ARGS)

build: setup-apt setup-go
	$(GO) build -tags $(TAGS) -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/deckhand
	$(GO) build -tags $(TAGS) -ldflags "$(LDFLAGS)" -o $(VIEW_BIN) ./cmd/deckhand-view

# vet, formatting, then every test under the race detector (the peers'
# integration tests and the conformance scenarios included). cmd/deckhand's
# real-window tests run last, alone: they read the window's pixels, and on
# two cores shared with the other packages' race-instrumented tests a frame
# could come later than any wait a person would accept. They take 10–15
# minutes: the timeout is a guard against a hang, not a speed limit.
test: setup setup-test-apt lint
	$(GO) test -tags $(TAGS) -race -timeout 45m $$($(GO) list ./... | grep -vx 'deckhand/cmd/deckhand')
	$(GO) test -tags $(TAGS) -race -timeout 45m ./cmd/deckhand

lint: setup-go
	$(GO) vet -tags $(TAGS) ./...
	cd testutil/barewindow && $(GO) vet -tags $(TAGS) .
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './testutil/node_modules/*')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi

# Benchmarks, each reporting Deckhand against a baseline measured in the
# same run.
bench: setup
	$(GO) test -tags $(TAGS) -run '^$$' -bench . -benchtime 3s ./...

# Deckhand against other MCP hosts (testutil/benchpeers): mark3labs/mcphost
# and charmbracelet/crush at the versions pinned here, built with the Go
# toolchain into bin/bench-peers, all pointed at the same aimock and
# server-everything instances; prints a Markdown table of ratios measured
# in this one run. Not part of `make test`. `go install module@version`
# first; where it stops only because the proxy will not list the module's
# versions (it checks for deprecation), the pinned version is downloaded
# and built from its own go.mod and go.sum, as go install would. A peer
# that cannot be had either way is named in the table with why
# (bin/bench-peers/NAME.unavailable); crush is one here (the proxy answers
# 403 for it): BENCH_CRUSH=/path/to/crush (BENCH_MCPHOST likewise) uses a
# binary built elsewhere and skips installing it. BENCH_PEERS_ARGS passes
# flags, e.g. BENCH_PEERS_ARGS="-n 3 -slow-n 1 -only answer1,tree,scale".
BENCH_PEERS_DIR := bin/bench-peers
BENCH_PEERS_MODULES := github.com/mark3labs/mcphost@v0.34.0 github.com/charmbracelet/crush@v0.96.1
BENCH_PEERS_ARGS ?=
.PHONY: bench-peers
bench-peers: build setup-peers
	@mkdir -p $(BENCH_PEERS_DIR)
	@for m in $(BENCH_PEERS_MODULES); do \
		path=$${m%@*}; name=$${path##*/}; out=$(CURDIR)/$(BENCH_PEERS_DIR)/$$name; \
		if [ -n "$$(printenv BENCH_$$(echo $$name | tr a-z A-Z))" ]; then continue; fi; \
		if [ -x $$out ] && [ "$$(cat $$out.version 2>/dev/null)" = "$$m" ]; then continue; fi; \
		rm -f $$out $$out.version $$out.unavailable; \
		echo "installing $$m"; \
		if GOBIN=$(CURDIR)/$(BENCH_PEERS_DIR) $(GO) install $$m > $$out.log 2>&1; then ok=1; \
		else \
			dir=$$(cd / && $(GO) mod download -json $$m 2>>$$out.log | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$$/\1/p'); \
			if [ -n "$$dir" ] && (cd $$dir && $(GO) build -o $$out .) >> $$out.log 2>&1; then ok=1; else ok=; fi; \
		fi; \
		if [ -n "$$ok" ]; then echo $$m > $$out.version; \
		else \
			if grep -q '403 Forbidden' $$out.log; then \
				echo "the Go module proxy answers 403 Forbidden for $$m"; \
			else head -n1 $$out.log; fi > $$out.unavailable; \
			echo "$$m could not be installed: $$(cat $$out.unavailable) (log: $$out.log)"; \
		fi; \
	done
	$(GO) run ./testutil/benchpeers -deckhand $(BIN) -peers $(BENCH_PEERS_DIR) $(BENCH_PEERS_ARGS)

# Run every fuzz target for FUZZTIME each (the seed corpora also run as
# ordinary tests in `make test`).
FUZZTIME ?= 30s
fuzz: setup-go
	@set -e; for pkg in $$($(GO) list ./...); do \
		for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
			echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg; \
		done; \
	done

# Check the README's walk of one approved tool call against every file
# whose code the call runs: two coverage profiles of TestCallPathFiles,
# stopped before and after the call, compared by TestCallPathCoverage.
callpath: setup-go
	@set -e; dir=$$(mktemp -d); trap 'rm -rf "$$dir"' EXIT; for p in stream request; do \
		DECKHAND_CALLPATH_UNTIL=$$p $(GO) test -tags $(TAGS) -count=1 -covermode=count -coverpkg=deckhand/... \
			-coverprofile=$$dir/$$p.out -run '^TestCallPathFiles$$' ./actors/ >/dev/null; \
	done; \
	DECKHAND_CALLPATH_PROFILES="$$dir/stream.out $$dir/request.out" \
		$(GO) test -tags $(TAGS) -count=1 -run '^TestCallPathCoverage$$' -v ./actors/

setup: setup-apt setup-go setup-peers

# apt-install installs the packages named in $(1) that are missing. Another
# apt process (an unattended upgrade) holding the lock is waited for, up to
# two minutes, rather than failing at once.
define apt-install
	@missing=""; for p in $(1); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get -o DPkg::Lock::Timeout=120 update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get -o DPkg::Lock::Timeout=120 install -y -qq --no-install-recommends $$missing; \
	fi
endef

# PNGs of the real window (chat with tool cards, approval dialog, servers
# panel, quick prompt) under Xvfb, against aimock and real MCP servers.
screenshots: build setup-peers
	$(call apt-install,$(SHOT_APT_PACKAGES))
	testutil/screenshots/run.sh $(BIN) assets/screenshots

# The tray and notifications on a real desktop bus (testutil/desktop/run.sh):
# checks the StatusNotifierItem, its dbusmenu, the quick prompt from the
# tray menu, an approval's notification and Quit, in the bus log and on the
# screen. Screenshots go to DESKTOP_SHOTS (make desktop-check
# DESKTOP_SHOTS=assets/screenshots refreshes the README's), the logs to
# bin/desktop-logs.
DESKTOP_SHOTS ?= bin/desktop-shots
desktop-check: build setup-peers
	$(call apt-install,$(DESKTOP_APT_PACKAGES))
	testutil/desktop/run.sh $(BIN) $(DESKTOP_SHOTS) bin/desktop-logs

setup-test-apt:
	$(call apt-install,$(TEST_APT_PACKAGES) $(DESKTOP_APT_PACKAGES))

setup-apt:
	$(call apt-install,$(APT_PACKAGES))

setup-go:
	$(GO) mod download
	cd testutil/barewindow && $(GO) mod download

setup-peers: $(PEERS_STAMP)

# The npm peers need Node.js and npm: Debian's, unless some are already on
# the PATH (nvm, a tarball).
$(PEERS_STAMP): testutil/package.json testutil/package-lock.json
	@if ! command -v node >/dev/null || ! command -v npm >/dev/null; then \
		echo "installing: nodejs npm"; \
		$(SUDO) apt-get -o DPkg::Lock::Timeout=120 update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get -o DPkg::Lock::Timeout=120 install -y -qq --no-install-recommends nodejs npm; \
	fi
	cd testutil && npm ci --no-audit --no-fund --loglevel=error
	touch $@

clean:
	rm -rf bin testutil/node_modules
