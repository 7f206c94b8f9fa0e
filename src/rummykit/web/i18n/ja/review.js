// The review area's words in Japanese, written by hand (the English is generated from Python:
// rummykit/review/words.py). The same keys and placeholders as ../en/review.js.
export default {
  "review.how_it_works": "それぞれの判断は、そのプレイヤーにその時点で見えていたものだけから評価します。見えなかったカードは使いません。見えなかったカードを、他のプレイヤーが取らなかった札や捨てた札から見てありそうな形で何度も配り直し、そのたびに考えられる選択肢をすべてディールの終わりまで打ち切ります。損失とは、見つかった最善の選択と比べて、その選択が平均で失った点数です。95%の範囲の下限でさえ基準を超えたときだけ印が付くので、運が悪かっただけで印が付くことはありません。上がる選択や、次のプレイヤーに確実な上がりを渡す捨て札は、その後に打つ手が残らないので、最後まで打ち切らずにディールの終わり方どおりに数えます。上がれる機会を見送った判断には、失った点数そのもので印が付きます。",
  "review.mark.blunder": "大悪手",
  "review.mark.inaccuracy": "疑問手",
  "review.mark.mistake": "悪手",
  "review.meaning.blunder": "{points}点以上を失った選択: ディールの勝負を分けた",
  "review.meaning.inaccuracy": "そのディールで{points}点以上を失った選択",
  "review.meaning.mistake": "{points}点以上を失った選択: はっきりした誤り",
};
