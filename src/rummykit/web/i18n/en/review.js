// The review area's words in English: generated from Python by
// `python -m rummykit.web_catalogues`. Do not edit; change the Python source instead.
export default {
  "review.how_it_works": "Each decision is judged from what the player could see at that moment, never from the cards hidden from them. The cards they could not see are dealt out many times over, each time as the other players' passed-over and thrown cards make likely, and every sensible choice is played to the end of the deal each time. A loss is the points the choice gave away against the best one found, on average; a decision is marked only when even the low end of its 95% range passes the mark's threshold, so bad luck alone never earns a mark. A choice that goes out, or hands the next player a certain way out, leaves nothing to play: it is counted as the deal would end, not played out, and a chance to go out that was passed up is marked by the full points it cost.",
  "review.mark.blunder": "Blunder",
  "review.mark.inaccuracy": "Inaccuracy",
  "review.mark.mistake": "Mistake",
  "review.meaning.blunder": "a choice that gave away at least {points} points: the deal turned on it",
  "review.meaning.inaccuracy": "a choice that gave away at least {points} points of the deal",
  "review.meaning.mistake": "a choice that gave away at least {points} points: a clear error",
};
