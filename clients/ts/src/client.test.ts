// Unit tests of the client's typed helpers (issue 11 item 4); run by `npm test`.
import assert from "node:assert/strict";
import { test } from "node:test";
import { create } from "@bufbuild/protobuf";
import { anyPack } from "@bufbuild/protobuf/wkt";
import { identityInterceptor, messageType, renderText, SEAT_HEADER, unpack, unpackAs } from "./client.js";
import { ViewSchema } from "./gen/parlour/games/tinycards/v1/tinycards_pb.js";
import { CatalogueSchema } from "./gen/parlour/games/murdercastle/v1/murdercastle_pb.js";

test("a game's View packed in an Any unpacks to the typed message", () => {
  const packed = anyPack(ViewSchema, create(ViewSchema, { deckSize: 3, hand: [4, 9] }));
  assert.equal(packed.typeUrl, "type.googleapis.com/parlour.games.tinycards.v1.View");
  const view = unpack(packed);
  assert.equal(view?.$typeName, "parlour.games.tinycards.v1.View");
  assert.deepEqual(unpackAs(packed, ViewSchema)?.hand, [4, 9]);
  assert.equal(unpackAs(packed, CatalogueSchema), undefined);
});

test("every game's type URLs resolve to generated message types", () => {
  for (const game of ["clashofminds", "houseofhorrors", "isayholmes", "murdercastle", "tinycards"]) {
    for (const message of ["Options", "Action", "Event", "View", "Catalogue"]) {
      const url = `type.googleapis.com/parlour.games.${game}.v1.${message}`;
      assert.equal(messageType(url)?.typeName, `parlour.games.${game}.v1.${message}`);
    }
  }
  assert.equal(messageType("type.googleapis.com/no.such.Message"), undefined);
  assert.equal(unpack(anyPack(CatalogueSchema, create(CatalogueSchema)))?.$typeName, CatalogueSchema.typeName);
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
