<?php

namespace App\Models;

use App\Support\Money;
use function App\Support\format_money;

/** An order of a customer. */
final class Order extends Entity
{
    use Timestamps;

    public const MAX_LINES = 50;

    /** @var Line[] */
    private array $lines = [];

    public function __construct(
        private string $customer,
        public Status $status = Status::Open,
    ) {
        $this->touch();
    }

    public function add(Line $line): self
    {
        if (count($this->lines) >= self::MAX_LINES) {
            throw new \OverflowException('too many lines');
        }
        $this->lines[] = $line;
        return $this;
    }

    public function total(): Money
    {
        $sum = new Money(0);
        foreach ($this->lines as $line) {
            $sum = $sum->plus($line->subtotal());
        }
        return $sum;
    }

    public function describe(): string
    {
        return $this->customer . ': ' . format_money($this->total());
    }

    public static function open(string $customer): static
    {
        return new static($customer);
    }
}

class Line
{
    public function __construct(public readonly Money $price, public readonly int $qty)
    {
    }

    public function subtotal(): Money
    {
        return $this->price->times($this->qty);
    }
}
