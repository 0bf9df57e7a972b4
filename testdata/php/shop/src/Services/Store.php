<?php

namespace App\Services;

use App\Models\{Order, Status};
use App\Models\Order as PlacedOrder;

interface Store
{
    public function put(Order $order): void;
}

class MemoryStore implements Store
{
    /** @var array<string, Order> */
    protected array $orders = [];

    public function put(Order $order): void
    {
        $this->orders[] = $order;
    }

    public function count(): int
    {
        return count($this->orders);
    }
}

class AuditedStore extends MemoryStore
{
    public function put(PlacedOrder $order): void
    {
        parent::put($order);
        static::log('put');
        self::log($order->describe());
    }

    private static function log(string $msg): void
    {
        error_log($msg);
    }
}
