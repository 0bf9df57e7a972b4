<?php

declare(strict_types=1);

namespace App\Models;

/**
 * Something stored with an id.
 */
interface Identifiable
{
    public function id(): int;
}

abstract class Entity implements Identifiable
{
    protected int $id = 0;

    public function id(): int
    {
        return $this->id;
    }

    abstract public function describe(): string;
}
