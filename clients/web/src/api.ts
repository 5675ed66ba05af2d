// The gateway's public API over Connect, and decoding of game messages carried in Any.
import { createClient, type Client } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { createRegistry, toJson, fromJson, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import { anyPack, anyUnpack, type Any } from "@bufbuild/protobuf/wkt";
import { GatewayService } from "./gen/parlour/gateway/v1/gateway_service_pb";
import { identity } from "./signin";
import { file_parlour_games_clashofminds_v1_clashofminds } from "./gen/parlour/games/clashofminds/v1/clashofminds_pb";
import { file_parlour_games_houseofhorrors_v1_houseofhorrors } from "./gen/parlour/games/houseofhorrors/v1/houseofhorrors_pb";
import { file_parlour_games_isayholmes_v1_isayholmes } from "./gen/parlour/games/isayholmes/v1/isayholmes_pb";
import { file_parlour_games_murdercastle_v1_murdercastle } from "./gen/parlour/games/murdercastle/v1/murdercastle_pb";
import { file_parlour_games_tinycards_v1_tinycards } from "./gen/parlour/games/tinycards/v1/tinycards_pb";

export const registry = createRegistry(
  file_parlour_games_clashofminds_v1_clashofminds,
  file_parlour_games_houseofhorrors_v1_houseofhorrors,
  file_parlour_games_isayholmes_v1_isayholmes,
  file_parlour_games_murdercastle_v1_murdercastle,
  file_parlour_games_tinycards_v1_tinycards,
);

export const gateway: Client<typeof GatewayService> = createClient(
  GatewayService,
  createConnectTransport({ baseUrl: window.location.origin, useBinaryFormat: true, interceptors: [identity] }),
);

/** A game message carried in an Any, as protobuf JSON (enum names, camelCase fields). */
export function decode(any: Any | undefined): JsonObject {
  if (!any || !any.typeUrl) return {};
  const message = anyUnpack(any, registry);
  const name = any.typeUrl.slice(any.typeUrl.lastIndexOf("/") + 1);
  const schema = registry.getMessage(name);
  if (!message || !schema) return { unknown: any.typeUrl };
  return toJson(schema, message, { alwaysEmitImplicit: false }) as JsonObject;
}

/** A game's Options message from JSON, packed for CreateMatch (undefined: defaults). */
export function packOptions(typeName: string, json: string): Any | undefined {
  if (!json.trim()) return undefined;
  const schema = registry.getMessage(typeName);
  if (!schema) throw new Error(`unknown options type ${typeName}`);
  return anyPack(schema, fromJson(schema, JSON.parse(json) as JsonValue));
}

export function bearer(token: string | null): { headers?: Record<string, string> } {
  return token ? { headers: { authorization: `Bearer ${token}` } } : {};
}
