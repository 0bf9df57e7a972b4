<?php

namespace App\Services;

use App\Models\Order;
use App\Models\Line;
use App\Support\Money;

require_once __DIR__ . '/../../lib/helpers.php';

class Checkout
{
    private Store $store;

    public function __construct(?Store $store = null)
    {
        $this->store = $store ?? new MemoryStore();
    }

    public function run(string $customer): Order
    {
        $order = Order::open($customer);
        $order->add(new Line(new Money(250), 2));
        $this->store->put($order);
        $order->touch();
        log_line('checkout ' . $order->id());
        strlen($customer);
        return $order;
    }

    public function unknown($thing): void
    {
        $thing->frob();
        Missing::call();
    }
}
