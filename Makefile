# Ledgerly: build and install as a Debian-style program.
#
#   make                       release build (Swift standard library linked in), as yourself
#   make install PREFIX=…      installs what `make` built (it does not build, so `sudo make
#                              install` leaves .build/ alone): binaries (stripped), man pages,
#                              bash/zsh/fish completions,
#                              systemd user units, under $(DESTDIR)$(PREFIX)
#   make uninstall PREFIX=…    removes exactly what install wrote (its manifest)
#   make deb                   dist/ledgerly_<version>_<arch>.deb from the same staging tree
#
# CONFIGURATION=debug installs the debug build instead (the tests do, to reuse their build).
# SCRATCH=DIR builds into (and installs from) swift build's --scratch-path DIR instead of .build.
# The four services are one binary, ledgerly-services, in LIBEXECDIR; ledgerly-store and the
# others in BINDIR are links to it (D504).
# Nothing here runs as root by itself; use sudo for a PREFIX you cannot write.

PREFIX ?= /usr/local
DESTDIR ?=
CONFIGURATION ?= release
SWIFT ?= swift
SCRATCH ?= .build

BINDIR := $(PREFIX)/bin
LIBEXECDIR := $(PREFIX)/libexec/ledgerly
MANDIR := $(PREFIX)/share/man/man1
DOCDIR := $(PREFIX)/share/doc/ledgerly
BASHDIR := $(PREFIX)/share/bash-completion/completions
ZSHDIR := $(PREFIX)/share/zsh/vendor-completions
FISHDIR := $(PREFIX)/share/fish/vendor_completions.d
UNITDIR := $(PREFIX)/lib/systemd/user
MANIFEST := $(PREFIX)/share/ledgerly/install-manifest

PROGRAMS := ledgerly ledgerly-services

ifeq ($(CONFIGURATION),release)
BUILD_FLAGS := -c release --static-swift-stdlib --scratch-path $(SCRATCH)
else
BUILD_FLAGS := -c debug --scratch-path $(SCRATCH)
endif

.PHONY: all build install uninstall deb clean-dist

all: build

build:
	for product in $(PROGRAMS); do $(SWIFT) build $(BUILD_FLAGS) --product $$product || exit 1; done

install:
	@BIN="$$(deploy/install-tree.sh --bin-path $(CONFIGURATION) $(SCRATCH))" && \
	deploy/install-tree.sh --bin "$$BIN" \
		--root "$(DESTDIR)" --prefix "$(PREFIX)" --manifest "$(MANIFEST)" \
		--bindir "$(BINDIR)" --libexecdir "$(LIBEXECDIR)" --mandir "$(MANDIR)" --docdir "$(DOCDIR)" \
		--bash "$(BASHDIR)" --zsh "$(ZSHDIR)" --fish "$(FISHDIR)" --units "$(UNITDIR)"

uninstall:
	deploy/install-tree.sh --uninstall --root "$(DESTDIR)" --manifest "$(MANIFEST)"

deb:
	deploy/build-deb.sh

clean-dist:
	rm -rf dist
