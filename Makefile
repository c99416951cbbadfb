# futhorc: build, test, demo and install. Generated files go to build/.
#
#   make            build bin/futhorc
#   make check      build and run every test; ends with "N passed, N failed"
#   make demo       build and run an example program
#   make install    install into $(PREFIX) (default /usr/local)

CC ?= cc
PREFIX ?= /usr/local
CFLAGS ?= -O2 -g
CFLAGS += -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Wno-unused-parameter
CPPFLAGS += -Icompiler -Iruntime -Ibuild/gen
LDLIBS += -lm

B := build
COMPILER_DIRS := util syntax check lower ir passes backend tools
COMPILER_SRC := $(foreach d,$(COMPILER_DIRS),$(wildcard compiler/$(d)/*.c))
RUNTIME_SRC := $(wildcard runtime/*.c)
RUNTIME_HDR := $(wildcard runtime/*.h)
GEN_SRC := $(B)/gen/lexer.c $(B)/gen/parser.c $(B)/gen/embedded.c
LIB_OBJ := $(patsubst %.c,$(B)/%.o,$(COMPILER_SRC) $(RUNTIME_SRC)) \
           $(B)/gen/lexer.o $(B)/gen/parser.o $(B)/gen/embedded.o
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(patsubst tests/unit/%.c,$(B)/tests/%,$(UNIT_SRC))
EMBEDDED := stdlib/prelude.fut $(RUNTIME_HDR) $(RUNTIME_SRC) $(wildcard runtime/*.cl)

# Build tools from Debian that a fresh machine may lack: binary:package, then
# path:package (the OpenCL headers, loader and PoCL, the CPU device that
# `make check` runs OpenCL programs on); and numpy, which generates the
# large cases of tests/compose.
DEPS := flex:flex bison:bison
DEP_HEADERS := /usr/include/cmocka.h:libcmocka-dev /usr/include/CL/cl.h:opencl-c-headers \
               /usr/share/doc/ocl-icd-opencl-dev:ocl-icd-opencl-dev /etc/OpenCL/vendors/pocl.icd:pocl-opencl-icd

.PHONY: all deps check demo install clean
all: bin/futhorc

# Installs missing build dependencies when run as root, else prints the
# command that would.
deps:
	@missing=""; \
	for d in $(DEPS); do command -v $${d%%:*} >/dev/null 2>&1 || missing="$$missing $${d#*:}"; done; \
	for d in $(DEP_HEADERS); do [ -e $${d%%:*} ] || missing="$$missing $${d#*:}"; done; \
	python3 -c 'import numpy' 2>/dev/null || missing="$$missing python3-numpy"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || exit 1; \
	  else \
	    echo "missing build dependencies; run: sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi

$(B)/.deps-ok: | deps
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

$(B)/gen/embedded.c: $(B)/embed_gen $(EMBEDDED)
	@mkdir -p $(B)/gen
	$(B)/embed_gen $(EMBEDDED) > $@

# Generated sources compile without the strict warnings they do not meet
# (and depend on the headers they include, such as the AST's, like the rest).
$(B)/gen/%.o: $(B)/gen/%.c $(B)/gen/parser.h $(B)/gen/lexer.h
	$(CC) $(CPPFLAGS) $(filter-out -Wextra,$(CFLAGS)) -Wno-unused-function -MMD -MP -c -o $@ $<

$(B)/%.o: %.c $(B)/gen/parser.h $(B)/gen/lexer.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

bin/futhorc: $(B)/compiler/main.o $(LIB_OBJ)
	@mkdir -p bin
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(B)/tests/test_%: tests/unit/test_%.c $(wildcard tests/unit/*.h) $(LIB_OBJ) $(B)/.deps-ok
	@mkdir -p $(B)/tests
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(LIB_OBJ) $(LDLIBS) -lcmocka

check: bin/futhorc $(UNIT_BIN)
	@bash tests/run.sh $(UNIT_BIN)

demo: bin/futhorc
	@bash examples/demo.sh

install: bin/futhorc
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/futhorc/runtime
	install -m 755 bin/futhorc $(DESTDIR)$(PREFIX)/bin/futhorc
	install -m 644 man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 $(RUNTIME_HDR) $(RUNTIME_SRC) $(DESTDIR)$(PREFIX)/share/futhorc/runtime/

clean:
	rm -rf $(B) bin

-include $(shell find $(B) -name '*.d' 2>/dev/null)
