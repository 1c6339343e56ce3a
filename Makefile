# ppslab — one Makefile for the library, the four programs and the tests.
#
#   make                  build everything into build/ (build-san/ with SAN=1)
#   make check            unit tests, then (as root) namespace integration tests
#   make demo             (root) install what is missing, build, run the demo
#   make install PREFIX=  install the programs (default /usr/local)
#   make SAN=1 ...        AddressSanitizer + UndefinedBehaviorSanitizer build
#   make WERROR=1         warnings are errors (CI)

PREFIX     ?= /usr/local
# V=1 shows the full commands
ifeq ($(V),1)
Q          :=
else
Q          := @
endif
DESTDIR    ?=
CC         ?= cc
PKG_CONFIG ?= pkg-config

ifeq ($(SAN),1)
B          ?= build-san
SANFLAGS   := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
else
B          ?= build
SANFLAGS   :=
endif

CFLAGS     ?= -O2 -g
XCFLAGS    := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wshadow -Wno-missing-field-initializers \
              -MMD -MP -Ilib -pthread $(SANFLAGS)
ifeq ($(WERROR),1)
XCFLAGS    += -Werror
endif

PCAP_CFLAGS    := $(shell $(PKG_CONFIG) --cflags libpcap 2>/dev/null)
PCAP_LIBS      := $(shell $(PKG_CONFIG) --libs libpcap 2>/dev/null)
JANSSON_CFLAGS := $(shell $(PKG_CONFIG) --cflags jansson 2>/dev/null)
JANSSON_LIBS   := $(shell $(PKG_CONFIG) --libs jansson 2>/dev/null)
LIBNET_LIBS    := $(shell libnet-config --libs 2>/dev/null)
# libnet-config --defines also says _BSD_SOURCE (which glibc warns about); only the one
# file that includes libnet.h needs HAVE_NET_ETHERNET_H.
LIBNET_CFLAGS  := -DHAVE_NET_ETHERNET_H

# Optional: the xdp: port backend (AF_XDP) needs libxdp and libbpf; without them the
# programs build without it and an xdp: spec says why. XDP=0 leaves it out on purpose.
ifneq ($(XDP),0)
XDP_OK     := $(shell $(PKG_CONFIG) --exists libxdp libbpf 2>/dev/null && echo 1)
endif
ifeq ($(XDP_OK),1)
XDP_CFLAGS := -DPPSLAB_HAVE_XDP $(shell $(PKG_CONFIG) --cflags libxdp libbpf)
XDP_LIBS   := $(shell $(PKG_CONFIG) --libs libxdp libbpf)
else ifneq ($(MAKECMDGOALS),clean)
$(info ppslab: building without the xdp: (AF_XDP) port backend ($(if $(filter 0,$(XDP)),XDP=0,libxdp-dev/libbpf-dev not found; 'make deps' installs them)))
endif

XCFLAGS    += $(PCAP_CFLAGS) $(JANSSON_CFLAGS)
LDLIBS     := $(PCAP_LIBS) $(JANSSON_LIBS) $(LIBNET_LIBS) $(XDP_LIBS) -lm -pthread $(SANFLAGS)

# Each directory's sources are found by wildcard, so adding a module needs no edit here.
LIB_SRCS   := $(wildcard lib/*.c)
GEN_SRCS   := $(wildcard gen/*.c)
SINK_SRCS  := $(wildcard sink/*.c)
RUT_SRCS   := $(wildcard router-under-test/*.c)
ANA_SRCS   := $(wildcard analysis/*.c)
UNIT_SRCS  := $(wildcard tests/unit/t_*.c)
# Test helpers (tests/helpers/NAME.c → $(B)/tests/helpers/NAME): small programs the
# integration tests drive, linked with the library only; never installed.
HELPER_SRCS := $(wildcard tests/helpers/*.c)
BENCH_SRCS := $(wildcard bench/*_bench.c)

obj = $(patsubst %.c,$(B)/obj/%.o,$(1))
LIB_OBJS   := $(call obj,$(LIB_SRCS))
GEN_OBJS   := $(call obj,$(GEN_SRCS))
SINK_OBJS  := $(call obj,$(SINK_SRCS))
RUT_OBJS   := $(call obj,$(RUT_SRCS))
ANA_OBJS   := $(call obj,$(ANA_SRCS))
LIBA       := $(B)/libppslab.a

PROGS      := $(B)/bin/ppslab-gen $(B)/bin/ppslab-sink $(B)/bin/ppslab-rut $(B)/bin/ppslab
# Unit tests may link any program module except its main.c.
MOD_OBJS   := $(filter-out %/main.o,$(GEN_OBJS) $(SINK_OBJS) $(RUT_OBJS) $(ANA_OBJS))
UNIT_BINS  := $(patsubst tests/unit/%.c,$(B)/tests/%,$(UNIT_SRCS))
HELPER_BINS := $(patsubst tests/helpers/%.c,$(B)/tests/helpers/%,$(HELPER_SRCS))
# Micro-benchmark programs (bench/*_bench.c): built by `make bench`, never by check.
BENCH_BINS := $(patsubst bench/%.c,$(B)/bench/%,$(BENCH_SRCS))

.SECONDARY:
.PHONY: all check check-unit check-integ demo deps install uninstall clean bench bench-progs
all: $(PROGS)

$(B)/.depcheck: scripts/deps.sh
	@scripts/deps.sh check
	@mkdir -p $(B) && touch $@

$(B)/obj/lib/pkt_build.o: XCFLAGS += $(LIBNET_CFLAGS)
$(B)/obj/lib/port_libnet.o: XCFLAGS += $(LIBNET_CFLAGS)
XDP_OBJS   := $(B)/obj/lib/port_xdp.o $(B)/obj/lib/xdp_prog.o
$(XDP_OBJS): XCFLAGS += $(XDP_CFLAGS)
$(XDP_OBJS): $(B)/xdp-$(if $(XDP_OK),on,off)
$(B)/xdp-%:
	@mkdir -p $(B) && rm -f $(B)/xdp-on $(B)/xdp-off && touch $@

# The git revision goes into version.o; the stamp changes only when the revision does.
GIT_REV    := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
$(shell mkdir -p $(B) && [ "$$(cat $(B)/git-rev 2>/dev/null)" = "$(GIT_REV)" ] || echo "$(GIT_REV)" > $(B)/git-rev)
$(B)/obj/lib/version.o: XCFLAGS += -DPPSLAB_GIT='"$(GIT_REV)"'
$(B)/obj/lib/version.o: $(B)/git-rev

# Unit tests reach every program's modules (and the helpers' shared headers);
# micro-benchmarks too.
$(B)/obj/tests/%.o: XCFLAGS += -Igen -Isink -Irouter-under-test -Ianalysis -Itests/helpers
$(B)/obj/bench/%.o: XCFLAGS += -Igen -Isink -Irouter-under-test -Ianalysis

$(B)/obj/%.o: %.c $(B)/.depcheck
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(XCFLAGS) $(CFLAGS) -c -o $@ $<

$(LIBA): $(LIB_OBJS)
	@rm -f $@
	$(Q)$(AR) rcs $@ $^

$(B)/bin/ppslab-gen:  $(GEN_OBJS) $(LIBA)
$(B)/bin/ppslab-sink: $(SINK_OBJS) $(LIBA)
$(B)/bin/ppslab-rut:  $(RUT_OBJS) $(LIBA)
$(B)/bin/ppslab:      $(ANA_OBJS) $(LIBA)
$(PROGS):
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(B)/tests/%: $(B)/obj/tests/unit/%.o $(MOD_OBJS) $(LIBA)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(B)/tests/helpers/%: $(B)/obj/tests/helpers/%.o $(LIBA)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(B)/bench/%: $(B)/obj/bench/%.o $(MOD_OBJS) $(LIBA)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

# The README's test command. Prints "N passed, N failed" last; non-zero on failure.
check: $(PROGS) $(UNIT_BINS) $(HELPER_BINS)
	@tests/run --build $(B)

check-unit: $(PROGS) $(UNIT_BINS) $(HELPER_BINS)
	@tests/run --build $(B) --unit-only

check-integ: $(PROGS) $(UNIT_BINS) $(HELPER_BINS)
	@tests/run --build $(B) --integ-only

deps:
	@scripts/deps.sh install

demo: deps
	@$(MAKE) --no-print-directory all
	@scripts/demo.sh $(B)/bin

bench-progs: $(BENCH_BINS)

bench: $(PROGS) $(HELPER_BINS) $(BENCH_BINS)
	@bench/run --build $(B)

install: $(PROGS)
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 $(PROGS) $(DESTDIR)$(PREFIX)/bin/

uninstall:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/bin/,$(notdir $(PROGS)))

clean:
	rm -rf build build-san build-fuzz

# ---- fuzzing (issue 10) ------------------------------------------------------------
# make fuzz [FUZZ_SECONDS=30] [FUZZ_ONLY=NAME]: builds every tests/fuzz/fuzz_NAME.c
# (libFuzzer, clang, ASan+UBSan) into build-fuzz/ and runs each for FUZZ_SECONDS with
# a seed corpus made from the tests' data; crash inputs land in build-fuzz/crashes/.
# A new harness needs no edit here.
FUZZ_SECONDS ?= 30
FUZZ_ONLY    ?=
FUZZ_SRCS    := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
.PHONY: fuzz fuzz-progs
fuzz:
	$(Q)$(MAKE) --no-print-directory B=build-fuzz CC=clang \
		SANFLAGS="$(FUZZ_SAN) -fsanitize=fuzzer-no-link" fuzz-progs
	$(Q)tests/fuzz/run --build build-fuzz --seconds $(FUZZ_SECONDS) $(if $(FUZZ_ONLY),--only $(FUZZ_ONLY))
fuzz-progs: $(patsubst tests/fuzz/%.c,$(B)/fuzz/%,$(FUZZ_SRCS))
$(B)/obj/tests/fuzz/%.o: XCFLAGS += -Wno-unused-command-line-argument
$(B)/fuzz/fuzz_%: $(B)/obj/tests/fuzz/fuzz_%.o $(MOD_OBJS) $(LIBA)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

-include $(shell find $(B)/obj -name '*.d' 2>/dev/null)
