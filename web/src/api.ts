// The one way the app talks to the server: the public proto contract over gRPC-Web, on the
// origin that served the page. No second API: these are the services every other client uses.
import { createClient, type Client } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import { BotService } from "./gen/clack/v1/bot_service_pb";
import { GameService } from "./gen/clack/v1/game_service_pb";
import { ReplayService } from "./gen/clack/v1/replay_service_pb";

const transport = createGrpcWebTransport({ baseUrl: typeof location === "undefined" ? "http://localhost" : location.origin });

export const games: Client<typeof GameService> = createClient(GameService, transport);
export const replay: Client<typeof ReplayService> = createClient(ReplayService, transport);
export const bots: Client<typeof BotService> = createClient(BotService, transport);

/** A seat this tab holds: its token is kept per tab (sessionStorage), never shared with others. */
export interface HeldSeat {
  seat: number;
  token: string;
}

const seatKey = (gameId: string) => `clack.seat.${gameId}`;

export function heldSeat(gameId: string): HeldSeat | undefined {
  const raw = sessionStorage.getItem(seatKey(gameId));
  if (!raw) return undefined;
  try {
    const held = JSON.parse(raw) as HeldSeat;
    return typeof held.seat === "number" && typeof held.token === "string" ? held : undefined;
  } catch {
    return undefined;
  }
}

export function holdSeat(gameId: string, held: HeldSeat): void {
  sessionStorage.setItem(seatKey(gameId), JSON.stringify(held));
}

/** Call options for a request about a game: the routing header and, for a held seat, its token. */
export function about(gameId: string, held?: HeldSeat, signal?: AbortSignal): { headers: Record<string, string>; signal?: AbortSignal } {
  const headers: Record<string, string> = { "x-clack-game": gameId };
  if (held) headers.authorization = `Bearer ${held.token}`;
  return { headers, signal };
}

/** The owner token of anonymous uploads, kept for the browser (not the tab): it proves the bots are ours. */
export function ownerHeaders(): Record<string, string> {
  const token = localStorage.getItem("clack.owner");
  return token ? { "x-clack-owner-token": token } : {};
}

export function keepOwnerToken(token: string): void {
  if (token) localStorage.setItem("clack.owner", token);
}

/** A readable message from a failed call. */
export function why(error: unknown): string {
  if (error instanceof Error) return error.message.replace(/^\[\w+\]\s*/, "");
  return String(error);
}
