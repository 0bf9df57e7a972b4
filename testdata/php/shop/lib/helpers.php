<?php

/**
 * Writes one line to the log.
 */
function log_line(string $msg): void
{
    fwrite(STDERR, $msg . PHP_EOL);
}

function strlen_safe(?string $s): int
{
    return $s === null ? 0 : strlen($s);
}
