import { debounce } from "lodash";
import { Cart, Product, type Item } from "@/models";
import { Logger } from "@lib/logger";
import type { Repository } from "./repo";
import * as fmt from "../util/format";

/** Checks carts out. */
export class CartService {
  private cart: Cart;
  private readonly notify = debounce(() => this.log.info("saved"), 100);

  constructor(private repo: Repository, private log: Logger = new Logger("cart")) {
    this.cart = new Cart();
  }

  add(item: Item): void {
    this.cart.add(item);
    this.log.info(fmt.currency(item.price()));
  }

  async checkout(): Promise<string> {
    const cart = this.cart;
    const total = cart.total();
    try {
      await this.repo.save(cart);
      this.notify();
    } catch (err) {
      this.log.warn(String(err));
      err.report();
    }
    return fmt.default(total);
  }

  static quick(repo: Repository, ...ids: string[]): CartService {
    const service = new CartService(repo);
    ids.forEach((id) => service.add(Product.create(id, 100)));
    return service;
  }
}
