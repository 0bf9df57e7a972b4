<?php

namespace App\Tests;

use App\Services\Checkout;
use PHPUnit\Framework\TestCase;

class CheckoutTest extends TestCase
{
    private Checkout $checkout;

    protected function setUp(): void
    {
        $this->checkout = new Checkout();
    }

    public function testRunMakesAnOrder(): void
    {
        $order = $this->checkout->run('ann');
        $this->assertSame(500, $order->total()->cents());
    }
}
