"""Words that may name a file or be text (``ask TEXT|FILE``, ``--llm NAME|FILE.gguf``,
``--embedding-model NAME|DIR``): asking the file system about them without a crash.

A word that cannot be a path is text, never an error: a pasted paragraph is longer than
a file name may be (255 bytes a name on the usual file systems), and asking whether such
a "file" exists raises ``OSError: File name too long`` on Python before 3.13, where
``Path.exists`` only hides a missing file. A word with a NUL character, or one that has
no bytes on this system (a lone surrogate), is no path either.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

NAME_MAX = 255  # bytes in one name (ext4, XFS, APFS, NTFS in UTF-16 units, tmpfs)
PATH_MAX = 4096  # bytes in a whole path (Linux)
# the errors that say "this cannot be a path", as opposed to one that may exist but
# cannot be looked at (no permission), which stays an error where it is read
_NOT_A_PATH = {errno.ENAMETOOLONG, errno.EILSEQ, errno.EINVAL}


def cannot_be_a_path(text: str) -> bool:
    """Whether no file could ever have ``text`` as its path on this system."""
    if not text or "\x00" in text:
        return True
    try:
        raw = os.fsencode(text)
    except UnicodeError:  # a lone surrogate that is no escaped byte
        return True
    return len(raw) >= PATH_MAX or any(len(part) > NAME_MAX for part in raw.split(b"/"))


def _ask(text: str, *, test: str, home: bool = False) -> bool:
    if cannot_be_a_path(text):
        return False
    try:
        path = Path(text).expanduser() if home else Path(text)
        return getattr(path, test)()
    except OSError as exc:  # a file system with shorter names than NAME_MAX
        if exc.errno in _NOT_A_PATH:
            return False
        raise
    except (ValueError, RuntimeError):  # expanduser of an unknown ~user
        return False


def path_exists(text: str, *, home: bool = False) -> bool:
    """Whether ``text`` names an existing file or folder (False for text that cannot);
    ``home``: a leading ``~`` is the user's home folder, as a shell would expand it."""
    return _ask(text, test="exists", home=home)


def is_folder(text: str) -> bool:
    """Whether ``text`` names an existing folder (False for text that cannot)."""
    return _ask(text, test="is_dir")


def is_regular_file(text: str) -> bool:
    """Whether ``text`` names an existing file (False for text that cannot)."""
    return _ask(text, test="is_file")


def clipped(text: str, keep: int = 100) -> str:
    """``text`` as a message quotes it: whole when short, else its start and its length
    (a pasted paragraph given as a model's name must not make a 1 MB error line)."""
    if len(text) <= keep + 20:
        return text
    return f"{text[:keep]}… ({len(text):,} characters)"
