"""Every player-facing text of the rule options and presets, by message-catalogue key.

The browser shows the rules in the player's language from catalogues (``web/i18n``); the
English one of area ``rules`` is written from this function by ``rummykit.web_catalogues``,
so that the options' one description (``describe_option`` in ``rummykit.core.rules``) stays
their only English source. Keys:

- ``rules.option.NAME``: the option's title; ``rules.help.NAME``: its help;
- ``rules.value.NAME.VALUE``: a value's label (``VALUE`` as JSON writes it: ``low``, ``15``,
  ``true``; ``null`` for what no value means);
- ``rules.preset.NAME``: a preset's summary; ``rules.preset_name.NAME``: its name as a page
  shows it (in English the name itself: ``classic``, ``500``);
- ``rules.offer.PRESET.NAME.VALUE`` and ``rules.offer_help.PRESET.NAME``: a preset's own
  choices for an option (a house rule's own labels too) and their help;
  ``rules.tie.PRESET.NAME``: why a preset links an option to another (``NAME`` being the
  follower).

>>> words = rule_texts()
>>> words["rules.option.aces"], words["rules.value.aces.low"]
('Aces in runs', 'Low only: A-2-3')
>>> words["rules.value.renewals.null"]
'No limit: a new stock whenever it runs out'
"""

from __future__ import annotations

import json

from rummykit.core.options import json_value
from rummykit.core.presets import PRESETS
from rummykit.core.rules import option_specs


def value_key(value: object) -> str:
    """A rule value as it appears in a catalogue key: JSON's text, strings unquoted.

    >>> value_key("low_or_high"), value_key(15), value_key(True), value_key(None)
    ('low_or_high', '15', 'true', 'null')
    """
    plain = json_value(value)
    return plain if isinstance(plain, str) else json.dumps(plain)


def rule_texts() -> dict[str, str]:
    """The English words of every option, value and preset, by catalogue key."""
    words: dict[str, str] = {}
    for spec in option_specs():
        words[f"rules.option.{spec.name}"] = spec.title
        words[f"rules.help.{spec.name}"] = spec.help
        for choice in spec.choices:
            words[f"rules.value.{spec.name}.{value_key(choice.value)}"] = choice.label
        if spec.none is not None:
            words[f"rules.value.{spec.name}.null"] = spec.none
    for preset in PRESETS.values():
        words[f"rules.preset.{preset.name}"] = preset.summary
        words[f"rules.preset_name.{preset.name}"] = preset.name
        for offer in preset.offers:
            if offer.help:
                words[f"rules.offer_help.{preset.name}.{offer.option}"] = offer.help
            for choice in offer.choices:
                key = f"rules.offer.{preset.name}.{offer.option}.{value_key(choice.value)}"
                words[key] = choice.label
        for rule in preset.house:
            for choice in rule.labels:
                key = f"rules.offer.{preset.name}.{rule.option}.{value_key(choice.value)}"
                words[key] = choice.label
        for tie in preset.ties:
            words[f"rules.tie.{preset.name}.{tie.follower}"] = tie.reason
    return words
