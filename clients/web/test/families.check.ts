// The page's family builder (src/families.ts) over families a test sends on stdin: every choice
// its controls allow, each move built and whether the builder calls it complete. The test
// (tests/test_play_families.py) compares the complete ones with the families' rule as the rules
// files state it, and has the service check them.
import { builder, type Family } from "../src/families";

declare const process: {
  stdin: AsyncIterable<string>;
  stdout: { write(text: string): boolean };
};

/** Every choice within the controls' bounds, but no more than `cap` of them. */
function* choices(bounds: [number, number][], cap: number): Generator<number[]> {
  const choice = bounds.map(([least]) => least);
  for (let made = 0; made < cap; made++) {
    yield [...choice];
    let index = 0;
    while (index < bounds.length) {
      const [least, most] = bounds[index] ?? [0, 0];
      if ((choice[index] ?? 0) < most) {
        choice[index] = (choice[index] ?? 0) + 1;
        break;
      }
      choice[index] = least;
      index++;
    }
    if (index === bounds.length) return;
  }
}

let text = "";
for await (const chunk of process.stdin) text += chunk;
const families: Family[] = JSON.parse(text);
const answers = families.map((family) => {
  const built = builder(family);
  const complete: unknown[] = [];
  const unmet = new Set<string>();
  let tried = 0;
  for (const choice of choices(built.counts.map((count) => [count.least, count.most]), 200_000)) {
    tried++;
    const lacking = built.unmet(choice);
    if (lacking.length === 0) complete.push(built.move(choice));
    for (const item of lacking) unmet.add(item.what);
  }
  // one count past its most, one below its least, one not whole: never complete
  for (const wrong of [(most: number) => most + 1, () => -1, (most: number) => most - 0.5]) {
    const choice = built.counts.map((count, n) => n === 0 ? wrong(count.most) : count.least);
    if (built.counts.length && built.unmet(choice).every((item) => item.what !== "count")) unmet.add("missed-count");
  }
  return { complete, tried, unmet: [...unmet].sort() };
});
process.stdout.write(JSON.stringify(answers));
