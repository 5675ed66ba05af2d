// Unit tests of the client's typed helpers (issue 11 item 4); run by `npm test`.
import assert from "node:assert/strict";
import { test } from "node:test";
import { create } from "@bufbuild/protobuf";
import type { DescFile } from "@bufbuild/protobuf";
import { anyPack, type FileDescriptorProto } from "@bufbuild/protobuf/wkt";
import { identityInterceptor, learnFiles, messageType, renderText, SEAT_HEADER, unpack, unpackAs } from "./client.js";
import { file_parlour_games_tinycards_v1_tinycards, ViewSchema } from "./gen/parlour/games/tinycards/v1/tinycards_pb.js";

/** A generated file and its imports as proto files, dependencies first (as ListGames sends them). */
function closure(file: DescFile, out: FileDescriptorProto[] = []): FileDescriptorProto[] {
  for (const dependency of file.dependencies) closure(dependency, out);
  if (!out.some((f) => f.name === file.proto.name)) out.push(file.proto);
  return out;
}

test("a game's types come from the proto files the gateway sends, not from code for that game", () => {
  const packed = anyPack(ViewSchema, create(ViewSchema, { deckSize: 3, hand: [4, 9] }));
  assert.equal(messageType(packed.typeUrl), undefined);
  assert.equal(unpack(packed), undefined);
  learnFiles(closure(file_parlour_games_tinycards_v1_tinycards));
  for (const message of ["Options", "Action", "Event", "View", "Catalogue"]) {
    const url = `type.googleapis.com/parlour.games.tinycards.v1.${message}`;
    assert.equal(messageType(url)?.typeName, `parlour.games.tinycards.v1.${message}`);
  }
  const view = unpack(packed) as { $typeName: string; hand: number[] } | undefined;
  assert.equal(view?.$typeName, "parlour.games.tinycards.v1.View");
  assert.deepEqual(view?.hand, [4, 9]);
  assert.deepEqual(unpackAs(packed, ViewSchema)?.hand, [4, 9]);
  assert.equal(messageType("type.googleapis.com/no.such.Message"), undefined);
});

test("with an identity token the JWT goes in authorization and the seat token beside it", async () => {
  const seen: Headers[] = [];
  const next = async (request: { header: Headers }) => {
    seen.push(new Headers(request.header));
    return {} as never;
  };
  const call = identityInterceptor(async () => "jwt-1")(next as never);
  await call({ header: new Headers({ authorization: "Bearer pt_seat" }) } as never);
  await call({ header: new Headers() } as never);
  assert.equal(seen[0].get("authorization"), "Bearer jwt-1");
  assert.equal(seen[0].get(SEAT_HEADER), "pt_seat");
  assert.equal(seen[1].get("authorization"), "Bearer jwt-1");
  assert.equal(seen[1].get(SEAT_HEADER), null);
});

test("seat references are written out in the viewer's person (issue 33 item 1)", () => {
  const names = ["Ada", "Ben"];
  const line = "{seat:1|holds|hold} the Skeleton Key; {seat:0} gave {seat:1's} card back";
  assert.equal(renderText(line, 1, names), "You hold the Skeleton Key; Ada gave your card back");
  assert.equal(renderText(line, 0, names), "Ben holds the Skeleton Key; you gave Ben's card back");
  assert.equal(renderText("{seat:2} passed. {seat:0|is|are} next", 0, names), "Player 3 passed. You are next");
});
