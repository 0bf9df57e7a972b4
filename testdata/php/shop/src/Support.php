<?php

namespace App\Support;

const CURRENCY = 'EUR';

class Money
{
    public function __construct(private int $cents)
    {
    }

    public function plus(Money $other): Money
    {
        return new Money($this->cents + $other->cents);
    }

    public function times(int $n): self
    {
        return new self($this->cents * $n);
    }

    public function cents(): int
    {
        return $this->cents;
    }
}

function format_money(Money $m): string
{
    return sprintf('%.2f %s', $m->cents() / 100, CURRENCY);
}
