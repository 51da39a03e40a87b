# Convenience targets over meson. `make run` and `make test` install what is missing first.
BUILD ?= _build
MESON_OPTIONS ?=
RUNS ?= 5
SCREENSHOTS ?= $(CURDIR)/_screenshots

.PHONY: all run test test-stress screenshots bench install clean

all: $(BUILD)/build.ninja
	meson compile -C $(BUILD)

$(BUILD)/build.ninja:
	meson setup $(BUILD) $(MESON_OPTIONS)

# Starts the app from the build folder, with its settings schema and translations.
run:
	build-aux/setup.sh run
	$(MAKE) all
	GSETTINGS_SCHEMA_DIR=$(BUILD)/resources SUANLI_LOCALEDIR=$(BUILD)/po $(BUILD)/app/suanli $(ARGS)

test:
	build-aux/setup.sh test
	$(MAKE) all
	meson test -C $(BUILD) --print-errorlogs

# The ui suite five times while two busy loops take the CPUs (build-aux/test-stress.sh).
test-stress:
	build-aux/setup.sh test
	$(MAKE) all
	build-aux/test-stress.sh $(BUILD) $(RUNS)

# PNGs of every page, light and dark, English and Chinese, in $(SCREENSHOTS).
screenshots: all
	SUANLI_SCREENSHOT_DIR=$(SCREENSHOTS) meson test -C $(BUILD) --suite ui --print-errorlogs
	@echo "Screenshots in $(SCREENSHOTS)"

bench: all
	meson test -C $(BUILD) --benchmark --verbose

install: all
	meson install -C $(BUILD)

clean:
	rm -rf $(BUILD)
