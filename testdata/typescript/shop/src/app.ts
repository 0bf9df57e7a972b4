import { Service, Product, formatPrice, Money } from ".";
import { MemoryRepository, type Repository } from "./services/repo";
import { root } from "@lib/logger";
import math = require("./util/math.cjs");

const { slugify, toTitle } = require("./util/legacy");
const legacy = require("./util/legacy");

/** Where carts are kept. */
export const repository: Repository = new MemoryRepository();

let started = false;

export async function main(args: string[]): Promise<void> {
  const service = Service.quick(repository, ...args);
  const product = Product.create(slugify("Big Box"), 1999);
  service.add(product);
  root.info(toTitle(product.label));
  legacy.shout(formatPrice(Money.round(math.mean([1, 2]))));
  await repository.save(new (await import("./models")).Cart());
  if (!started) {
    started = true;
    const view = await import("./ui/CartView");
    view.CartView;
  }
  unknownHelper();
  product.label.trim();
  args.map((a) => a.length);
}

main(process.argv.slice(2)).catch(console.error);
