// stdin: a JSON list of LaTeX strings; stdout: a JSON list of their KaTeX MathML (null: KaTeX rejects it)
const katex = require("katex");
let input = "";
process.stdin.on("data", (d) => { input += d; });
process.stdin.on("end", () => {
  const out = JSON.parse(input).map((tex) => {
    try {
      return katex.renderToString(tex, { output: "mathml", displayMode: true, throwOnError: true, strict: "ignore" });
    } catch (e) {
      return null;
    }
  });
  process.stdout.write(JSON.stringify(out));
});
