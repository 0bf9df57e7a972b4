export * from "./models";
export { CartService as Service } from "./services/cart";
export { default as formatPrice, Money } from "./util/format";
