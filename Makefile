# aotc - top-level convenience targets.
BUILD ?= build
SAN_BUILD ?= build-san
SHARED ?= $(abspath ../shared)
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all aotc test unit san clean deps

all: aotc

aotc:
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	@cmake --build $(BUILD) -j$(JOBS)

san:
	@cmake -S . -B $(SAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DAOTC_SANITIZE=ON >/dev/null
	@cmake --build $(SAN_BUILD) -j$(JOBS)

unit: san
	cd $(SAN_BUILD) && AOTC_SHARED=$(SHARED) ctest --output-on-failure -j$(JOBS)

test: unit

clean:
	rm -rf $(BUILD) $(SAN_BUILD)
