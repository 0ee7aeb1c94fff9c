"""The treasurer's screens: money per event, the bank account, statements imported with a
preview, the queue of lines to decide."""
