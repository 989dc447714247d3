# aotc - top-level commands.
#   make          build build/aotc
#   make demo     install missing packages (as root), build, compile a model, run it
#   make test     the whole test suite (ASan + UBSan)
#   make bench    benchmark figures (arena, constants, code size, instructions)
BUILD ?= build
SAN_BUILD ?= build-san
SHARED ?= $(abspath ../shared)
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
MODEL ?=
FUZZ_SECONDS ?= 60

DEBIAN_PACKAGES = cmake make gcc clang pkg-config libyaml-dev libzip-dev libcmocka-dev python3 \
                  gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm binutils

.PHONY: all aotc deps san unit test integration fuzz demo bench docs clean

all: aotc

aotc:
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DAOTC_TESTS=OFF >/dev/null
	@cmake --build $(BUILD) -j$(JOBS)

# Installs the Debian packages that are missing (only when run as root).
deps:
	@missing=""; for p in $(DEBIAN_PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	  else echo "missing Debian packages:$$missing (run 'sudo make deps')"; fi; fi

san:
	@cmake -S . -B $(SAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DAOTC_SANITIZE=ON >/dev/null
	@cmake --build $(SAN_BUILD) -j$(JOBS)

unit: san
	cd $(SAN_BUILD) && AOTC_SHARED=$(SHARED) ctest --output-on-failure -j$(JOBS)

# End-to-end checks with the sanitized compiler (generated modules are
# built with the sanitizers too on the host).
integration: san
	AOTC_SHARED=$(SHARED) AOTC_VERIFY_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined" \
	  JOBS=$(JOBS) bash tests/run-integration.sh $(SAN_BUILD)/aotc

# libFuzzer (1.5 x FUZZ_SECONDS in all, as before): the whole conversion on
# byte mutations and on semantic mutations (rewired subgraph/tensor indices,
# quantization parameters; tests/fuzz/fuzz_semantic.c) for half of
# FUZZ_SECONDS each, the reader/writer round trip for half.
fuzz:
	AOTC_SHARED=$(SHARED) bash tests/fuzz/run_convert.sh $$(( $(FUZZ_SECONDS) / 2 ))
	AOTC_SHARED=$(SHARED) SAN_BUILD=$(abspath $(SAN_BUILD)) bash tests/fuzz/run_semantic.sh $$(( $(FUZZ_SECONDS) / 2 ))
	AOTC_SHARED=$(SHARED) bash tests/fuzz/run.sh $$(( $(FUZZ_SECONDS) / 2 ))

test: deps unit integration fuzz
	@echo "make test: all suites passed"

docs: aotc
	$(BUILD)/aotc operators --markdown > docs/operators.md

demo: deps aotc
	@mkdir -p $(BUILD)/demo
	@cmake --build $(BUILD) --target aotc_demo_model -j$(JOBS) >/dev/null 2>&1 || \
	  (cmake -S . -B $(BUILD) -DAOTC_TESTS=OFF >/dev/null && cmake --build $(BUILD) --target aotc_demo_model -j$(JOBS))
	@if [ -z "$(MODEL)" ]; then $(BUILD)/aotc_demo_model $(BUILD)/demo/demo_model.tflite && \
	  echo "demo model: $(BUILD)/demo/demo_model.tflite (int8 KWS-shaped CNN made with aotc's writer)"; fi
	@$(BUILD)/aotc convert --model.path $(if $(MODEL),$(MODEL),$(BUILD)/demo/demo_model.tflite) \
	  --module.path $(BUILD)/demo --module.name module --force
	@cc -std=c99 -O2 -Wall -Wextra -Werror -pedantic -I$(BUILD)/demo/module/includes-api -I$(BUILD)/demo/module/src \
	  $(BUILD)/demo/module/src/*.c examples/demo/main.c -o $(BUILD)/demo/demo -lm
	@$(BUILD)/demo/demo
	@cd $(BUILD)/demo/module && for f in src/*.c; do cc -std=c99 -O2 -c $$f -o $${f%.c}.o -Iincludes-api -Isrc; done && \
	  size -t src/*.o | tail -1 | awk '{print "flash (module code + constants, host -O2): " $$1+$$2 " bytes"}' && rm -f src/*.o

bench: aotc
	AOTC_SHARED=$(SHARED) bash bench/run.sh $(BUILD)/aotc
	AOTC_SHARED=$(SHARED) bash bench/seanet.sh $(BUILD)/aotc

clean:
	rm -rf $(BUILD) $(SAN_BUILD)
