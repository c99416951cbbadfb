# futhorc: build, test, demo and install. Generated files go to build/.
#
#   make            build bin/futhorc
#   make check      build and run every test; ends with "N passed, N failed"
#   make fuzz       build the fuzz targets and run each for FUZZ_TIME seconds
#   make check-sanitize  the tests with the compiler, its tests and every
#                   generated program built with ASan and UBSan (in build-san/;
#                   README.md says which groups it leaves out)
#   make demo       build and run an example program
#   make install    install into $(PREFIX) (default /usr/local)

CC ?= cc
PREFIX ?= /usr/local
CFLAGS ?= -O2 -g
# Extra compiling and linking flags of the whole build: check-sanitize sets
# the sanitizers here (CFLAGS given on the command line would replace the
# flags below).
SANITIZE ?=
CFLAGS += -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Wno-unused-parameter $(SANITIZE)
LDFLAGS += $(SANITIZE)
# -lpthread: the threads of the multicore scheduler (runtime/sched.c).
LDLIBS += -lm -lpthread

# Where objects and tests are built, and where futhorc goes.
B ?= build
BIN ?= bin
# The runtime's headers are found for #include "..." only: runtime/sched.h
# must not stand in for the system's <sched.h> (which <pthread.h> includes).
CPPFLAGS += -Icompiler -iquote runtime -I$(B)/gen
COMPILER_DIRS := util syntax check lower ir passes imp backend tools
COMPILER_SRC := $(foreach d,$(COMPILER_DIRS),$(wildcard compiler/$(d)/*.c))
RUNTIME_SRC := $(wildcard runtime/*.c)
RUNTIME_HDR := $(wildcard runtime/*.h)
GEN_SRC := $(B)/gen/lexer.c $(B)/gen/parser.c $(B)/gen/embedded.c
# The LLVM backend's objects are linked into futhorc only, with LLVM
# (below); the unit tests and fuzz targets link the rest.
LLVM_SRC := $(wildcard compiler/backend/llvm*.c)
LLVM_OBJ := $(patsubst %.c,$(B)/%.o,$(LLVM_SRC))
LIB_OBJ := $(patsubst %.c,$(B)/%.o,$(filter-out $(LLVM_SRC),$(COMPILER_SRC)) $(RUNTIME_SRC)) \
           $(B)/gen/lexer.o $(B)/gen/parser.o $(B)/gen/embedded.o
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(patsubst tests/unit/%.c,$(B)/tests/%,$(UNIT_SRC))
EMBEDDED := stdlib/prelude.fut $(RUNTIME_HDR) $(RUNTIME_SRC) $(wildcard runtime/*.cl) runtime/llvm/copy.h \
            runtime/llvm/copy.c

# The LLVM backend (compiler/backend/llvm*.c, the multicore backend) uses
# LLVM 22's C API, the newest LLVM Debian has, and embeds two files built
# here: the runtime as LLVM bitcode (runtime/llvm/glue.c, compiled by the
# clang of the same version) that every program's module starts from, and
# the runtime object that every program is linked with (runtime/llvm/rt.c).
LLVM_CONFIG ?= llvm-config-22
LLVM_CLANG ?= clang-22
LLVM_INC = $(shell $(LLVM_CONFIG) --includedir)
LLVM_LIBS = -L$(shell $(LLVM_CONFIG) --libdir) $(shell $(LLVM_CONFIG) --libs)
LLVM_BUILT := $(B)/gen/glue.bc $(B)/gen/rt_llvm.o

# Build tools from Debian that a fresh machine may lack: binary:package, then
# path:package (the OpenCL headers, loader and PoCL, the CPU device that
# `make check` runs OpenCL programs on); and numpy, which generates the
# large cases of tests/compose.
DEPS := flex:flex bison:bison git:git gnuplot:gnuplot-nox chromium:chromium $(LLVM_CLANG):clang-22
DEP_HEADERS := /usr/include/cmocka.h:libcmocka-dev /usr/include/CL/cl.h:opencl-c-headers \
               /usr/lib/llvm-22/include/llvm-c/Core.h:llvm-22-dev \
               /usr/share/doc/ocl-icd-opencl-dev:ocl-icd-opencl-dev /etc/OpenCL/vendors/pocl.icd:pocl-opencl-icd

.PHONY: all deps fuzz-deps fuzz-build fuzz check check-sanitize san-compiler demo install clean
all: $(BIN)/futhorc

# The end of the deps recipes: installs the packages in $$missing when run
# as root, else prints the command that would.
INSTALL_MISSING = if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || exit 1; \
	  else \
	    echo "missing build dependencies; run: sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi

# numpy is wanted by a python3 that tests/compose/run.sh uses: the one on
# PATH or the system's.
CHECK_DEPS = missing=""; \
	for d in $(DEPS); do command -v $${d%%:*} >/dev/null 2>&1 || missing="$$missing $${d\#*:}"; done; \
	for d in $(DEP_HEADERS); do [ -e $${d%%:*} ] || missing="$$missing $${d\#*:}"; done; \
	python3 -c 'import numpy' 2>/dev/null || /usr/bin/python3 -c 'import numpy' 2>/dev/null || \
	  missing="$$missing python3-numpy"; \
	$(INSTALL_MISSING)

deps:
	@$(CHECK_DEPS)

# The first build checks (and installs) the dependencies; later ones do not.
$(B)/.deps-ok:
	@$(CHECK_DEPS)
	@mkdir -p $(B) && touch $@

$(B)/gen/lexer.c $(B)/gen/lexer.h &: compiler/syntax/lexer.l $(B)/.deps-ok
	@mkdir -p $(B)/gen
	flex --header-file=$(B)/gen/lexer.h -o $(B)/gen/lexer.c $<

$(B)/gen/parser.c $(B)/gen/parser.h &: compiler/syntax/parser.y $(B)/.deps-ok
	@mkdir -p $(B)/gen
	bison -Wall -Werror --defines=$(B)/gen/parser.h -o $(B)/gen/parser.c $<

$(B)/embed_gen: compiler/embed_gen.c
	@mkdir -p $(B)
	$(CC) -O1 -o $@ $<

$(B)/gen/glue.bc: runtime/llvm/glue.c runtime/llvm/copy.h $(RUNTIME_HDR) $(B)/.deps-ok
	@mkdir -p $(B)/gen
	$(LLVM_CLANG) -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -ffp-contract=off -fno-math-errno -emit-llvm -c -o $@ $<

$(B)/gen/rt_llvm.o: $(wildcard runtime/llvm/*) $(RUNTIME_HDR) $(RUNTIME_SRC)
	@mkdir -p $(B)/gen
	$(CC) -O2 -std=c11 -fPIC -c -o $@ runtime/llvm/rt.c

$(B)/gen/embedded.c: $(B)/embed_gen $(EMBEDDED) $(LLVM_BUILT)
	@mkdir -p $(B)/gen
	$(B)/embed_gen $(EMBEDDED) runtime/llvm/glue.bc=$(B)/gen/glue.bc runtime/llvm/rt.o=$(B)/gen/rt_llvm.o > $@

# Generated sources compile without the strict warnings they do not meet
# (and depend on the headers they include, such as the AST's, like the rest).
$(B)/gen/%.o: $(B)/gen/%.c $(B)/gen/parser.h $(B)/gen/lexer.h
	$(CC) $(CPPFLAGS) $(filter-out -Wextra,$(CFLAGS)) -Wno-unused-function -MMD -MP -c -o $@ $<

$(B)/%.o: %.c $(B)/gen/parser.h $(B)/gen/lexer.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

# Only the LLVM backend's files include LLVM's headers.
$(B)/compiler/backend/llvm%: CPPFLAGS += -I$(LLVM_INC)

# futhorc does not link LLVM, whose loading costs every run about 10 ms:
# for the LLVM backend (multicore, run, dump --stage=llvm) it runs
# futhorc-llvm beside it, the same program with LLVM (compiler/main.c).
$(B)/compiler/main_nollvm.o: compiler/main.c $(B)/gen/parser.h $(B)/gen/lexer.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -DFUTHORC_NO_LLVM -MMD -MP -c -o $@ $<

$(BIN)/futhorc: $(B)/compiler/main_nollvm.o $(LIB_OBJ) | $(BIN)/futhorc-llvm
	@mkdir -p $(BIN)
	$(CC) $(LDFLAGS) -o $@ $(B)/compiler/main_nollvm.o $(LIB_OBJ) $(LDLIBS)

$(BIN)/futhorc-llvm: $(B)/compiler/main.o $(LIB_OBJ) $(LLVM_OBJ)
	@mkdir -p $(BIN)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) $(LLVM_LIBS)

$(B)/tests/test_%: tests/unit/test_%.c $(wildcard tests/unit/*.h) $(wildcard runtime/llvm/*.[ch]) $(LIB_OBJ) $(B)/.deps-ok
	@mkdir -p $(B)/tests
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(LIB_OBJ) $(LDLIBS) -lcmocka

check: $(BIN)/futhorc $(UNIT_BIN) fuzz-build
	@FUTHORC=$(BIN)/futhorc bash tests/run.sh $(UNIT_BIN)

# ---- Fuzzing ------------------------------------------------------------------
# libFuzzer targets (tests/fuzz; README.md, "Fuzzing") built by clang with
# AddressSanitizer and UBSan into build/fuzz, with the compiler and runtime
# sources they test compiled again there. The sanitizer and libFuzzer
# runtimes are linked statically, so build/fuzz can be copied to another
# x86-64 Linux machine and run there (tests/fuzz/run.sh). `make check`
# runs each target briefly; `make fuzz` for FUZZ_TIME seconds, in FUZZ_JOBS
# processes each.

FUZZ_CC ?= clang
FUZZ_TIME ?= 60
FUZZ_JOBS ?= 1
F := $(B)/fuzz
FUZZ_TARGETS := frontend pipeline values server library
FUZZ_BIN := $(addprefix $(F)/,$(FUZZ_TARGETS))
FUZZ_CFLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all \
               -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Wno-unused-parameter
FUZZ_OBJ := $(patsubst $(B)/%,$(F)/obj/%,$(LIB_OBJ))
FUZZ_COMMON := tests/fuzz/fuzz.c tests/fuzz/fuzz.h
FUZZ_LINK = $(FUZZ_CC) $(CPPFLAGS) -Itests/fuzz -I$(F)/gen $(FUZZ_CFLAGS) -fsanitize=fuzzer -static-libstdc++ -static-libgcc -o $@

# clang and its libFuzzer runtime (Debian: clang and libclang-rt-14-dev).
fuzz-deps:
	@missing=""; \
	command -v $(FUZZ_CC) >/dev/null 2>&1 || missing=" clang"; \
	echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }' | \
	  $(FUZZ_CC) -fsanitize=fuzzer -x c -o /dev/null - >/dev/null 2>&1 || missing="$$missing libclang-rt-14-dev"; \
	$(INSTALL_MISSING)

$(F)/.deps-ok: | fuzz-deps
	@mkdir -p $(F) && touch $@

fuzz-build: $(FUZZ_BIN) $(F)/seeds/.done

$(F)/obj/gen/%.o: $(B)/gen/%.c $(B)/gen/parser.h $(B)/gen/lexer.h | $(F)/.deps-ok
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) $(filter-out -Wextra,$(FUZZ_CFLAGS)) -Wno-unused-function -fsanitize=fuzzer-no-link -c -o $@ $<

$(F)/obj/%.o: %.c $(B)/gen/parser.h $(B)/gen/lexer.h | $(F)/.deps-ok
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(F)/frontend $(F)/pipeline: $(F)/%: tests/fuzz/%.c $(FUZZ_COMMON) $(FUZZ_OBJ)
	$(FUZZ_LINK) $< tests/fuzz/fuzz.c $(FUZZ_OBJ) $(LDLIBS)

$(F)/values: tests/fuzz/values.c $(FUZZ_COMMON) $(F)/obj/runtime/values.o
	$(FUZZ_LINK) $< tests/fuzz/fuzz.c $(F)/obj/runtime/values.o $(LDLIBS)

# The server and library targets test generated code: the program of
# tests/server/arith.fut (its C included by tests/fuzz/server.c) and the
# library of tests/fuzz/library.fut. Generated C pastes in the runtime, whose
# static inline functions clang reports unused.
$(F)/gen/server_prog.c: tests/server/arith.fut bin/futhorc | $(F)/.deps-ok
	@mkdir -p $(dir $@)
	bin/futhorc dump --stage=c $< >$@.tmp && mv $@.tmp $@

$(F)/server: tests/fuzz/server.c $(FUZZ_COMMON) $(F)/gen/server_prog.c
	$(FUZZ_LINK) -Wno-unused-function $< tests/fuzz/fuzz.c $(LDLIBS)

$(F)/gen/fuzzlib.c $(F)/gen/fuzzlib.h &: tests/fuzz/library.fut bin/futhorc | $(F)/.deps-ok
	@mkdir -p $(dir $@)
	bin/futhorc c --library $< -o $(F)/gen/fuzzlib

$(F)/library: tests/fuzz/library.c $(FUZZ_COMMON) $(F)/gen/fuzzlib.c $(F)/gen/fuzzlib.h
	$(FUZZ_LINK) -Wno-unused-function $< tests/fuzz/fuzz.c $(F)/gen/fuzzlib.c $(LDLIBS)

$(F)/seeds/.done: tests/fuzz/seeds.sh bin/futhorc tests/server/run.sh \
                  $(shell find tests examples bench -name '*.fut' -o -name '*.in' -o -name '*.out')
	bash tests/fuzz/seeds.sh $(F)/seeds && touch $@

fuzz: fuzz-build
	@FUZZ_TIME=$(FUZZ_TIME) FUZZ_JOBS=$(FUZZ_JOBS) bash tests/fuzz/run.sh

# The sanitizers of check-sanitize, for the compiler, the unit tests and
# (through tests/run.sh) every generated program: any report stops the
# program with a failure. Its C compiler is clang where installed, whose
# UBSan also sees overflow in arithmetic that gcc narrows first (uint16_t
# products).
SANITIZERS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
SAN_CC ?= $(if $(shell command -v clang),clang,$(CC))

# Builds into build-san/ (futhorc in build-san/bin) at -O1, which keeps
# stack traces exact, then runs every test with the sanitizers on
# (tests/sanitize runs the same compiler over every program in make check).
san-compiler:
	@CFLAGS='-O1 -g' $(MAKE) --no-print-directory CC=$(SAN_CC) B=build-san BIN=build-san/bin \
	  SANITIZE='$(SANITIZERS)' build-san/bin/futhorc $(UNIT_BIN:$(B)/%=build-san/%)

check-sanitize: san-compiler
	@FUTHORC=build-san/bin/futhorc FUTHORC_SANITIZE='$(SANITIZERS)' SAN_CC=$(SAN_CC) \
	  bash tests/run.sh $(UNIT_BIN:$(B)/%=build-san/%)

demo: $(BIN)/futhorc
	@bash examples/demo.sh

install: $(BIN)/futhorc
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/man/man3 $(DESTDIR)$(PREFIX)/share/man/man5 $(DESTDIR)$(PREFIX)/share/man/man7 \
	  $(DESTDIR)$(PREFIX)/share/futhorc/runtime
	install -m 755 $(BIN)/futhorc $(BIN)/futhorc-llvm $(DESTDIR)$(PREFIX)/bin/
	install -m 644 man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 man/*.3 $(DESTDIR)$(PREFIX)/share/man/man3/
	install -m 644 man/*.5 $(DESTDIR)$(PREFIX)/share/man/man5/
	install -m 644 man/*.7 $(DESTDIR)$(PREFIX)/share/man/man7/
	install -m 644 $(RUNTIME_HDR) $(RUNTIME_SRC) $(DESTDIR)$(PREFIX)/share/futhorc/runtime/

clean:
	rm -rf $(B) $(BIN) build-san

-include $(shell find $(B) -name '*.d' 2>/dev/null)
