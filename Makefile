# SPDX-License-Identifier: BSD-2-Clause
# ppslab — one Makefile for the library, the four programs and the tests.
#
#   make                  build everything into build/ (build-san/ with SAN=1)
#   make check            unit tests, then (as root) namespace integration tests
#                         (TEST_JOBS=N: up to N integration tests at a time)
#   make check-stress     the same under load: CPU hogs and a full-rate sender
#   make demo             (root) install what is missing, build, run the demo
#   make install PREFIX=  install programs, man pages, profiles, rules, bash completion
#                         (default /usr/local; DESTDIR= for staging); make uninstall
#   make deb              build a Debian package into build/deb/ (dpkg-buildpackage)
#   make PORTABLE=1 ...   build into build-portable/ without the Linux-only code
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

# PORTABLE=1: what builds on FreeBSD/DragonFly too, checked here: the Linux-only code
# (the afpacket and xdp port backends, AF_XDP program loading, ifinfo_linux.c) is left
# out and ifinfo_bsd.c (getifaddrs) reads the interfaces; into build-portable/.
ifeq ($(PORTABLE),1)
B          ?= build-portable
XDP        := 0
else ifeq ($(SAN),1)
B          ?= build-san
SANFLAGS   := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
else
B          ?= build
SANFLAGS   :=
endif

CFLAGS     ?= -O2 -g
# Warnings as DPDK keeps them; WERROR=1 (every CI pass) makes them errors.
XCFLAGS    := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wshadow -Wno-missing-field-initializers \
              -Wmissing-prototypes -Wstrict-prototypes -Wundef -Wformat=2 -Wvla -Wcast-qual \
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
ifeq ($(PORTABLE),1)
XCFLAGS    += -DPPSLAB_PORTABLE
endif
LDLIBS     := $(PCAP_LIBS) $(JANSSON_LIBS) $(LIBNET_LIBS) $(XDP_LIBS) -lm -pthread $(SANFLAGS)

# Each directory's sources are found by wildcard, so adding a module needs no edit here.
LIB_SRCS   := $(wildcard lib/*.c)
ifeq ($(PORTABLE),1)
LIB_SRCS   := $(filter-out lib/port_afpacket.c lib/port_xdp.c lib/xdp_prog.c lib/ifinfo_linux.c,$(LIB_SRCS))
else ifeq ($(shell uname -s),Linux)
LIB_SRCS   := $(filter-out lib/ifinfo_bsd.c,$(LIB_SRCS))
endif
GEN_SRCS   := $(wildcard gen/*.c)
SINK_SRCS  := $(wildcard sink/*.c)
# ppslab-rut's two rooms: the forwarder, and the firewall it stands on (fw.h its seam)
FW_DIR     := rut/fw
FW_SRCS    := $(wildcard $(FW_DIR)/*.c)
RUT_SRCS   := $(wildcard rut/*.c)
# The analyzer's two rooms: runner/ runs experiments, results/ reads and presents them;
# the cmd_*.c front ends and main.c stay at the top of analysis/.
ANA_DIRS   := analysis analysis/runner analysis/results
ROOMS      := lib gen sink rut fw analysis
ANA_SRCS   := $(foreach d,$(ANA_DIRS),$(wildcard $(d)/*.c))
# Unit tests live in the room they test: tests/unit/<room>/t_*.c, ROOM one of lib gen sink
# rut fw analysis (ROOMS above); each sees lib/ and its room's headers and links only its
# room's archive (rut's, the firewall's too: the forwarder stands on it).
UNIT_SRCS  := $(wildcard $(foreach r,$(ROOMS),tests/unit/$(r)/t_*.c))
# Test helpers (tests/helpers/NAME.c → $(B)/tests/helpers/NAME): small programs the
# integration tests drive, linked with the library only; never installed.
HELPER_SRCS := $(wildcard tests/helpers/*.c)
BENCH_SRCS := $(wildcard bench/*_bench.c)

obj = $(patsubst %.c,$(B)/obj/%.o,$(1))
LIB_OBJS   := $(call obj,$(LIB_SRCS))
GEN_OBJS   := $(call obj,$(GEN_SRCS))
SINK_OBJS  := $(call obj,$(SINK_SRCS))
RUT_OBJS   := $(call obj,$(RUT_SRCS))
FW_OBJS    := $(call obj,$(FW_SRCS))
ANA_OBJS   := $(call obj,$(ANA_SRCS))
LIBA       := $(B)/libppslab.a
# One archive per program: its modules without main.o (the room's unit tests link it).
GEN_A      := $(B)/libgen.a
SINK_A     := $(B)/libsink.a
RUT_A      := $(B)/librut.a
FW_A       := $(B)/libfw.a
ANA_A      := $(B)/libanalysis.a

PROGS      := $(B)/bin/ppslab-gen $(B)/bin/ppslab-sink $(B)/bin/ppslab-rut $(B)/bin/ppslab
# Fuzz harnesses and micro-benchmarks may link any program module except its main.c.
MOD_OBJS   := $(filter-out %/main.o,$(GEN_OBJS) $(SINK_OBJS) $(RUT_OBJS) $(FW_OBJS) $(ANA_OBJS))
UNIT_BINS  := $(foreach t,$(UNIT_SRCS),$(B)/tests/$(basename $(notdir $(t))))
HELPER_BINS := $(patsubst tests/helpers/%.c,$(B)/tests/helpers/%,$(HELPER_SRCS))
# Micro-benchmark programs (bench/*_bench.c): built by `make bench`, never by check.
BENCH_BINS := $(patsubst bench/%.c,$(B)/bench/%,$(BENCH_SRCS))

.SECONDARY:
.PHONY: all check check-unit check-integ check-stress demo deps install uninstall deb clean bench bench-progs soak examples
all: $(PROGS)

$(B)/.depcheck: scripts/deps.sh
	@scripts/deps.sh check
	@mkdir -p $(B) && touch $@

$(B)/obj/lib/pkt_build.o: XCFLAGS += $(LIBNET_CFLAGS)
$(B)/obj/lib/port_libnet.o: XCFLAGS += $(LIBNET_CFLAGS)
XDP_OBJS   := $(B)/obj/lib/port_xdp.o $(B)/obj/lib/xdp_prog.o $(B)/obj/lib/tc_vlan.o
$(XDP_OBJS): XCFLAGS += $(XDP_CFLAGS)
$(XDP_OBJS): $(B)/xdp-$(if $(XDP_OK),on,off)
$(B)/xdp-%:
	@mkdir -p $(B) && rm -f $(B)/xdp-on $(B)/xdp-off && touch $@

# The git revision and the share directory (where installed programs find profiles)
# go into version.o; the stamp changes only when one of them does.
# (GIT_REV from the environment wins: `make deb` builds in a copy without .git.)
ifndef GIT_REV
GIT_REV    := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
endif
SHARE_DIR  := $(PREFIX)/share/ppslab
$(shell mkdir -p $(B) && [ "$$(cat $(B)/git-rev 2>/dev/null)" = "$(GIT_REV) $(SHARE_DIR)" ] || echo "$(GIT_REV) $(SHARE_DIR)" > $(B)/git-rev)
$(B)/obj/lib/version.o: XCFLAGS += -DPPSLAB_GIT='"$(GIT_REV)"' -DPPSLAB_SHARE_DIR='"$(SHARE_DIR)"'
$(B)/obj/lib/version.o: $(B)/git-rev

# Fuzz harnesses and micro-benchmarks reach every program's modules; a unit test its
# room's (below).
ANA_INC    := $(addprefix -I,$(ANA_DIRS))
$(B)/obj/analysis/%.o: XCFLAGS += $(ANA_INC)
$(B)/obj/tests/%.o: XCFLAGS += -Itests/unit -Itests/helpers
$(B)/obj/tests/fuzz/%.o: XCFLAGS += -Igen -Isink -Irut -I$(FW_DIR) $(ANA_INC)
$(B)/obj/tests/unit/gen/%.o: XCFLAGS += -Igen
$(B)/obj/tests/unit/sink/%.o: XCFLAGS += -Isink
$(B)/obj/rut/%.o: XCFLAGS += -I$(FW_DIR)
$(B)/obj/tests/unit/rut/%.o: XCFLAGS += -Irut -I$(FW_DIR)
$(B)/obj/tests/unit/fw/%.o: XCFLAGS += -I$(FW_DIR)
$(B)/obj/tests/unit/analysis/%.o: XCFLAGS += $(ANA_INC)
$(B)/obj/bench/%.o: XCFLAGS += -Igen -Isink -Irut -I$(FW_DIR) $(ANA_INC)

$(B)/obj/%.o: %.c $(B)/.depcheck
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(XCFLAGS) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(LIBA): $(LIB_OBJS)
	@rm -f $@
	$(Q)$(AR) rcs $@ $^

$(GEN_A):  $(filter-out %/main.o,$(GEN_OBJS))
$(SINK_A): $(filter-out %/main.o,$(SINK_OBJS))
$(RUT_A):  $(filter-out %/main.o,$(RUT_OBJS))
$(ANA_A):  $(filter-out %/main.o,$(ANA_OBJS))
$(FW_A):   $(FW_OBJS)
$(GEN_A) $(SINK_A) $(RUT_A) $(FW_A) $(ANA_A):
	@rm -f $@
	$(Q)$(AR) rcs $@ $^

$(B)/bin/ppslab-gen:  $(B)/obj/gen/main.o $(GEN_A) $(LIBA)
$(B)/bin/ppslab-sink: $(B)/obj/sink/main.o $(SINK_A) $(LIBA)
$(B)/bin/ppslab-rut:  $(B)/obj/rut/main.o $(RUT_A) $(FW_A) $(LIBA)
$(B)/bin/ppslab:      $(B)/obj/analysis/main.o $(ANA_A) $(LIBA)
$(PROGS):
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

ROOM_A_lib      :=
ROOM_A_gen      := $(GEN_A)
ROOM_A_sink     := $(SINK_A)
ROOM_A_rut      := $(RUT_A) $(FW_A)
ROOM_A_fw       := $(FW_A)
ROOM_A_analysis := $(ANA_A)
# t_runparts checks that the rules rulegen.c writes load in ppslab-rut's firewall
$(B)/tests/t_runparts: $(FW_A)
$(B)/obj/tests/unit/analysis/t_runparts.o: XCFLAGS += -I$(FW_DIR)
define unit_test
$(B)/tests/$(basename $(notdir $(1))): $(call obj,$(1)) $(ROOM_A_$(word 3,$(subst /, ,$(1)))) $(LIBA)
endef
$(foreach t,$(UNIT_SRCS),$(eval $(call unit_test,$(t))))
$(UNIT_BINS):
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -o $@ $(filter %.o,$^) $(filter-out $(LIBA),$(filter %.a,$^)) $(LIBA) $(LDLIBS)

$(B)/tests/helpers/%: $(B)/obj/tests/helpers/%.o $(LIBA)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(B)/bench/%: $(B)/obj/bench/%.o $(MOD_OBJS) $(LIBA)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

# The README's test command. Prints "N passed, N failed" last; non-zero on failure.
# TEST_JOBS: how many integration tests run at a time (tests/run --jobs; CI runs 2).
TEST_JOBS  ?= 1
check: $(PROGS) $(UNIT_BINS) $(HELPER_BINS)
	@tests/run --build $(B) --jobs $(TEST_JOBS)

check-unit: $(PROGS) $(UNIT_BINS) $(HELPER_BINS)
	@tests/run --build $(B) --unit-only

check-integ: $(PROGS) $(UNIT_BINS) $(HELPER_BINS)
	@tests/run --build $(B) --integ-only --jobs $(TEST_JOBS)

# The same suite under load: a CPU hog on every core, a full-rate sender in a lab of
# its own, the tests pinned to one core (tests/stress): races a fixed wait would hide,
# zero loss a starved host cannot give. STRESS_FLAGS: tests/run's options (CI runs
# --integ-only --exclude t_deb).
check-stress: $(PROGS) $(UNIT_BINS) $(HELPER_BINS)
	@tests/stress --build $(B) $(STRESS_FLAGS)

deps:
	@scripts/deps.sh install

demo: deps
	@$(MAKE) --no-print-directory all
	@scripts/demo.sh $(B)/bin

# docs/examples' tables and figures, made again from the shipped results files (no root)
examples: $(PROGS)
	@docs/examples/remake.sh $(B)/bin

# The long-run check: 30 minutes of gen → rut → sink (SOAK_SECONDS), exact
# accounting and flat memory. Root; not part of make check.
soak: $(PROGS)
	@bench/soak.sh $(B)/bin

bench-progs: $(BENCH_BINS)

bench: $(PROGS) $(HELPER_BINS) $(BENCH_BINS)
	@bench/run --build $(B)

# What `make install` puts under PREFIX, and `make uninstall` removes (exactly these).
MANS       := $(wildcard man/*.1)
PROFILES   := $(wildcard profiles/*.json)
RULES      := $(wildcard profiles/rules/*.rules)
HOOKS      := $(wildcard profiles/hooks/*)
I_BIN      := $(DESTDIR)$(PREFIX)/bin
I_MAN      := $(DESTDIR)$(PREFIX)/share/man/man1
I_SHARE    := $(DESTDIR)$(SHARE_DIR)
I_COMP     := $(DESTDIR)$(PREFIX)/share/bash-completion/completions
COMP_LINKS := ppslab-gen ppslab-sink ppslab-rut

install: $(PROGS)
	install -d $(I_BIN) $(I_MAN) $(I_SHARE)/profiles/rules $(I_SHARE)/profiles/hooks $(I_COMP)
	install -m 0755 $(PROGS) $(I_BIN)/
	install -m 0644 $(MANS) $(I_MAN)/
	$(if $(PROFILES),install -m 0644 $(PROFILES) $(I_SHARE)/profiles/)
	$(if $(RULES),install -m 0644 $(RULES) $(I_SHARE)/profiles/rules/)
	$(if $(HOOKS),install -m 0755 $(HOOKS) $(I_SHARE)/profiles/hooks/)
	sed 's|@PPSLAB_SHARE_DIR@|$(SHARE_DIR)|' completion/ppslab.bash > $(I_COMP)/ppslab
	chmod 0644 $(I_COMP)/ppslab
	for p in $(COMP_LINKS); do ln -sf ppslab $(I_COMP)/$$p; done

uninstall:
	rm -f $(addprefix $(I_BIN)/,$(notdir $(PROGS))) $(addprefix $(I_MAN)/,$(notdir $(MANS)))
	rm -f $(addprefix $(I_SHARE)/profiles/,$(notdir $(PROFILES)))
	rm -f $(addprefix $(I_SHARE)/profiles/rules/,$(notdir $(RULES)))
	rm -f $(addprefix $(I_SHARE)/profiles/hooks/,$(notdir $(HOOKS)))
	rm -f $(I_COMP)/ppslab $(addprefix $(I_COMP)/,$(COMP_LINKS))
	rmdir $(I_SHARE)/profiles/rules $(I_SHARE)/profiles/hooks $(I_SHARE)/profiles $(I_SHARE) 2>/dev/null || true

# A .deb in build/deb/: dpkg-buildpackage (debian/) in a copy of the tree, so nothing
# is written beside the tree and the tree's own build/ is left alone.
DEB_DIR    := build/deb
deb:
	@command -v dpkg-buildpackage >/dev/null && command -v dh >/dev/null || \
		{ echo "make deb needs dpkg-buildpackage and debhelper: apt-get install dpkg-dev debhelper" >&2; exit 69; }
	rm -rf $(DEB_DIR)/src && mkdir -p $(DEB_DIR)/src/ppslab
	tar -cf - --exclude=./build --exclude='./build-*' --exclude=./.git --exclude=./demo-out . | \
		tar -xf - -C $(DEB_DIR)/src/ppslab
	cd $(DEB_DIR)/src/ppslab && GIT_REV='$(GIT_REV)' dpkg-buildpackage -b -us -uc
	mv $(DEB_DIR)/src/*.deb $(DEB_DIR)/src/*.buildinfo $(DEB_DIR)/src/*.changes $(DEB_DIR)/
	rm -rf $(DEB_DIR)/src
	@ls $(DEB_DIR)/*.deb

clean:
	rm -rf build build-san build-portable build-fuzz

# ---- fuzzing -----------------------------------------------------------------------
# make fuzz [FUZZ_SECONDS=30] [FUZZ_ONLY=NAME] [FUZZ_JOBS=N]: builds every tests/fuzz/fuzz_NAME.c
# (libFuzzer, clang, ASan+UBSan) into build-fuzz/ and runs each for FUZZ_SECONDS with
# a seed corpus made from the tests' data; crash inputs land in build-fuzz/crashes/.
# A new harness needs no edit here.
FUZZ_SECONDS ?= 30
FUZZ_ONLY    ?=
FUZZ_JOBS    ?= 1
FUZZ_SRCS    := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
.PHONY: fuzz fuzz-progs
fuzz:
	$(Q)$(MAKE) --no-print-directory B=build-fuzz CC=clang \
		SANFLAGS="$(FUZZ_SAN) -fsanitize=fuzzer-no-link" fuzz-progs
	$(Q)tests/fuzz/run --build build-fuzz --seconds $(FUZZ_SECONDS) --jobs $(FUZZ_JOBS) $(if $(FUZZ_ONLY),--only $(FUZZ_ONLY))
fuzz-progs: $(patsubst tests/fuzz/%.c,$(B)/fuzz/%,$(FUZZ_SRCS))
$(B)/obj/tests/fuzz/%.o: XCFLAGS += -Wno-unused-command-line-argument
$(B)/fuzz/fuzz_%: $(B)/obj/tests/fuzz/fuzz_%.o $(MOD_OBJS) $(LIBA)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

-include $(shell find $(B)/obj -name '*.d' 2>/dev/null)
