// The gateway's public API over Connect, and decoding of game messages carried in Any.
import { createClient, type Client } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { create, createFileRegistry, createMutableRegistry, toJson, fromJson, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import { anyPack, anyUnpack, FileDescriptorSetSchema, type Any } from "@bufbuild/protobuf/wkt";
import { GatewayService } from "./gen/parlour/gateway/v1/gateway_service_pb";
import type { Game } from "./gen/parlour/gateway/v1/gateway_pb";
import { file_parlour_engine_v1_platform } from "./gen/parlour/engine/v1/platform_pb";
import { identity } from "./signin";

/** The message types the page decodes: the platform's events, then every served game's
 * messages as the gateway describes them (`listGames`), so no game needs code here. */
export const registry = createMutableRegistry(file_parlour_engine_v1_platform);

export const gateway: Client<typeof GatewayService> = createClient(
  GatewayService,
  createConnectTransport({ baseUrl: window.location.origin, useBinaryFormat: true, interceptors: [identity] }),
);

/** The games served; their proto files (ListGames with `withFiles`) join the registry. */
export async function listGames(): Promise<Game[]> {
  const response = await gateway.listGames({ withFiles: true });
  for (const type of createFileRegistry(create(FileDescriptorSetSchema, { file: response.files }))) registry.add(type);
  return response.games;
}

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
