"""Names people can trust: no hidden characters, no BOT mark, no look-alike of an account.

Three checks, each with a sentence for the person:

- ``hidden_character``: control, format and other invisible characters (zero-width spaces
  and joiners, the right-to-left override U+202E that showed "Ann", U+202E, "evil" as "Annlive",
  fillers that draw nothing) have no place in a name: they make two names that look the same,
  or one that reads differently from what it is.
- ``has_bot_mark``: "BOT" as a word of a name ("Ann [BOT]", "Ann-BOT", or in look-alike
  letters "[ВОТ]", "B0T") mimics the badge the page draws after a program's name, which reads
  "BOT" in capitals. A program's own account may say so; a person's and a seat's name may
  not. The word in small letters ("Basic bot 57", the name ``rummy join`` gives a program
  that plays without an account) does not look like the badge and is left alone.
- ``look_alike_key``: the Unicode TR39 skeleton (UTS #39, section 4, "Confusable Detection")
  of the name, case folded: two names with the same key look alike ("aIice" and "alice",
  "rnary" and "mary", Cyrillic "а" and Latin "a"), so a new account's key must differ from
  every existing account's (``LookAlikes``). Only new names are checked: accounts made before
  keep their names and sign in as before.

The skeleton needs the confusables data of Unicode (``confusables.txt``). No maintained Python
library computes skeletons (ICU's ``SpoofChecker`` does, but no Python binding with wheels
exposes it), so the skeleton is computed here from the data that the ``confusable-homoglyphs``
package ships, as UTS #39 defines it: NFD, each character replaced by its prototype, NFD
again. That package stores each ``source → prototype`` line of ``confusables.txt`` as a pair
listed both ways, without its direction; a prototype is the character every other member of
its group maps to, so each group here maps to one member of it, chosen the same way every
time (a sequence of several characters if the group has one: sources are single characters).
Equality of skeletons, the only use made of them, is the same as with the prototypes.
"""

from __future__ import annotations

import functools
import importlib.resources
import json
import re
import threading
import unicodedata
from collections.abc import Callable, Iterable
from typing import Final

HIDDEN_CATEGORIES: Final = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
"""Control, format (zero-width, bidi controls), private, surrogate, unassigned, and line and
paragraph separators: nothing in them shows as a letter."""

INVISIBLE_CHARACTERS: Final = frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0"
    + "".join(map(chr, range(0x180B, 0x1810)))
    + "".join(map(chr, range(0xFE00, 0xFE10)))
    + "".join(map(chr, range(0xE0100, 0xE01F0)))
)
"""Letters and marks that draw nothing (Unicode's default ignorables outside the categories
above: fillers, the combining grapheme joiner, variation selectors) and the blank braille
pattern, which shows as a space."""

SPACE: Final = " "
"""The one space a name may hold (other spaces, such as U+3000 or U+00A0, look the same and
tell two names apart unseen)."""

HIDDEN_CHARACTER: Final = (
    "A name may not hold invisible or control characters (such as a zero-width space "
    "or a right-to-left mark): type it with visible letters."
)
BOT_MARK: Final = "A name may not hold the mark BOT: the page marks programs' accounts itself."

NAME_REFUSALS: Final[dict[str, str]] = {
    "name_hidden_character": HIDDEN_CHARACTER,
    "name_bot_mark": BOT_MARK,
}
"""Every reason a person's name at a table or party is refused, with its English sentence
(a request's ``ErrorAnswer`` carries the reason; the page words it from the catalogue area
``refusals``, key ``refusals.REASON``)."""

_DIRECTION_MARKS: Final = str.maketrans("", "", "\u200e\u200f")
"""confusable-homoglyphs' data wraps right-to-left characters in left-to-right marks (they
come from the comments of ``confusables.txt``): not part of the characters."""

_WORDS: Final = re.compile(r"[^\W\d_]+")
"""A name's words: runs of letters, split at digits, spaces, punctuation and ``_``."""


def hidden_character(name: str) -> str | None:
    """The first invisible or control character of ``name``, if it has one."""
    for character in name:
        if character in INVISIBLE_CHARACTERS or (character.isspace() and character != SPACE):
            return character
        if unicodedata.category(character) in HIDDEN_CATEGORIES:
            return character
    return None


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype (one member of its group, the same each time)."""
    data = importlib.resources.files("confusable_homoglyphs").joinpath("confusables.json")
    pairs: dict[str, list[dict[str, str]]] = json.loads(data.read_text(encoding="utf-8"))
    parent: dict[str, str] = {}

    def root(node: str) -> str:
        while parent.setdefault(node, node) != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    links: dict[str, int] = {}
    for key, entries in pairs.items():
        left = key.translate(_DIRECTION_MARKS)
        for entry in entries:
            right = entry["c"].translate(_DIRECTION_MARKS)
            if left and right:
                parent[root(left)] = root(right)
                links[left] = links.get(left, 0) + 1
    groups: dict[str, list[str]] = {}
    for node in list(parent):
        groups.setdefault(root(node), []).append(node)
    prototypes: dict[str, str] = {}
    for members in groups.values():
        # a sequence first (only prototypes are), then the most linked (a prototype is linked
        # to each of its sources), then the smallest: a choice that never changes
        chosen = min(members, key=lambda node: (len(node) == 1, -links.get(node, 0), node))
        prototypes.update((member, chosen) for member in members if len(member) == 1)
    return prototypes


def skeleton(text: str) -> str:
    """The UTS #39 skeleton of ``text``: equal for strings that look alike.

    >>> skeleton("aIice") == skeleton("alice")
    True
    >>> skeleton("\u0430da") == skeleton("ada")  # a Cyrillic "a"
    True
    >>> skeleton("bob") == skeleton("bab")
    False
    """
    prototypes = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    mapped = "".join(prototypes.get(character, character) for character in decomposed)
    return unicodedata.normalize("NFD", mapped)


def look_alike_key(name: str) -> str:
    """What two names that look alike have in common, whatever their letters' case.

    The skeleton, case folded, and its skeleton again: "AIice" and "alice" have one key
    (``I`` looks like ``l``; folding then makes ``A`` into ``a``).

    >>> look_alike_key("AIice") == look_alike_key("alice") == look_alike_key("ALICE".lower())
    True
    """
    return skeleton(skeleton(unicodedata.normalize("NFKC", name)).casefold())


def has_bot_mark(name: str) -> bool:
    """Whether ``name`` has the badge's word BOT in it, in capitals or letters like them.

    >>> [has_bot_mark(name) for name in ("Ann [BOT]", "Ann-BOT", "[\u0412\u041e\u0422]", "B0T")]
    [True, True, True, True]
    >>> [has_bot_mark(name) for name in ("Abbott", "ROBOT", "Basic bot 57", "robo-1")]
    [False, False, False, False]
    """
    # the words of the skeleton, not of the name: "B0T" is one word once "0" reads as "O"
    words = _WORDS.findall(skeleton(unicodedata.normalize("NFKC", name)))
    return skeleton("BOT") in words


def player_name_problem(name: str) -> str | None:
    """Why ``name`` may not be a person's name at a table or party, or ``None``.

    The reason is one of ``NAME_REFUSALS``.
    """
    if hidden_character(name) is not None:
        return "name_hidden_character"
    if has_bot_mark(name):
        return "name_bot_mark"
    return None


class NameRefused(ValueError):
    """A person's name refused: ``reason`` is one of ``NAME_REFUSALS``, ``str`` its sentence."""

    def __init__(self, reason: str) -> None:
        super().__init__(NAME_REFUSALS[reason])
        self.reason = reason


def checked_player_name(name: str) -> str:
    """``name`` if it may be a person's name at a table; else ``NameRefused`` saying why.

    A validator for the request models that carry a seat's name.
    """
    problem = player_name_problem(name)
    if problem is not None:
        raise NameRefused(problem)
    return name


def catalogue() -> dict[str, str]:
    """The names' part of the catalogue area ``refusals``: ``refusals.REASON``."""
    return {f"refusals.{reason}": sentence for reason, sentence in NAME_REFUSALS.items()}


class LookAlikes:
    """The look-alike keys of every account, kept in step with the store.

    ``refresh`` reads only the accounts made since the last one seen (by id), so it can be
    called before each sign-up, also when other server processes share the store.
    """

    def __init__(self) -> None:
        """No account seen yet."""
        self._lock = threading.Lock()
        self._names: dict[str, str] = {}
        self._after = 0

    def refresh(self, accounts_after: Callable[[int], Iterable[tuple[int, str]]]) -> None:
        """Learn the accounts made since the last refresh (``accounts_after(id)``)."""
        with self._lock:
            for account, name in accounts_after(self._after):
                self._names.setdefault(look_alike_key(name), name)
                self._after = max(self._after, account)

    def add(self, name: str) -> None:
        """Learn an account this process made."""
        with self._lock:
            self._names.setdefault(look_alike_key(name), name)

    def existing(self, name: str) -> str | None:
        """The name of an account that ``name`` looks like, if there is one."""
        with self._lock:
            return self._names.get(look_alike_key(name))
