<?php

namespace App\Models;

trait Timestamps
{
    private ?string $createdAt = null;

    public function touch(): void
    {
        $this->createdAt = date('c');
    }
}
