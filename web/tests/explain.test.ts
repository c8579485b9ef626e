// Component tests of "why did my bot do that": the answer of ExplainDecision in words.
import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { decisionSeat, explanation } from "../src/explain";
import { ExplainDecisionResponseSchema } from "../src/gen/clack/v1/bot_service_pb";
import { EventSchema } from "../src/gen/clack/v1/events_pb";

describe("a decision run again", () => {
  it("says what the bot chose against the record, what it cost, printed and saw", () => {
    const answer = create(ExplainDecisionResponseSchema, {
      botId: "greedy",
      version: "abc",
      seat: 1,
      viewJson: '{"seat":1,"legal":[{"text":"3-5 east@5"}]}',
      output: "thinking\n",
      choice: 0,
      action: "3-5 east@5",
      operations: 1234n,
      micros: 2500n,
      maxOperations: 500000n,
      deadlineMillis: 100n,
      recordedAction: "3-5 east@5",
      same: true,
    });
    const box = explanation(answer);
    expect(box.dataset.same).toBe("true");
    expect(box.querySelector("[data-testid=explain-choice]")?.textContent).toBe("greedy@abc, run again: chose 3-5 east@5 (view.legal[0]); the game recorded 3-5 east@5. Same as in the game.");
    expect(box.querySelector("[data-testid=explain-cost]")?.textContent).toBe("1,234 of 500,000 operations · 2.5 ms (deadline 100 ms)");
    expect(box.querySelector("[data-testid=explain-output]")?.textContent).toBe("thinking\n");
    expect(box.querySelector("[data-testid=explain-view]")?.textContent).toContain('"seat": 1');
  });

  it("tells a fault, and a run that differs from the record", () => {
    const answer = create(ExplainDecisionResponseSchema, { botId: "b", version: "v", faultReason: "deadline", faultDetail: "too slow", recordedAction: "draw", recordedFault: "operations", same: false, viewJson: "not json" });
    const box = explanation(answer);
    expect(box.dataset.same).toBe("false");
    expect(box.querySelector("[data-testid=explain-choice]")?.textContent).toContain("failed: deadline (too slow); the game recorded a fault: operations, and played draw in its place. Not what the game recorded.");
    expect(box.querySelector("[data-testid=explain-output]")?.textContent).toBe("(nothing)");
    expect(box.querySelector("[data-testid=explain-view]")?.textContent).toBe("not json");
  });

  it("finds the seat of a move or a fault, and none for other events", () => {
    expect(decisionSeat(create(EventSchema, { payload: { case: "actionApplied", value: { seat: 2 } } }))).toBe(2);
    expect(decisionSeat(create(EventSchema, { payload: { case: "botFaulted", value: { seat: 1 } } }))).toBe(1);
    expect(decisionSeat(create(EventSchema, { payload: { case: "tileDrawn", value: { seat: 1 } } }))).toBeUndefined();
    expect(decisionSeat(undefined)).toBeUndefined();
  });
});
