"""The game's dice source (issue 13): a fast generator reseeded from the OS."""

import random
from unittest import mock

from wodcombat.world import dice_source
from wodcombat.world.dice_source import GameDice


def test_faces_are_fair_d10_faces():
    dice = GameDice()
    faces = [dice.randint(1, 10) for _ in range(5000)]
    assert set(faces) == set(range(1, 11))


def test_reseeded_from_the_os_every_few_commands():
    """No run of faces a player can see comes from one Twister state: the OS is read again
    every RESEED_COMMANDS commands; the draws in between cost no system call."""
    with mock.patch.object(dice_source.os, "urandom", wraps=dice_source.os.urandom) as osr:
        dice = GameDice(reseed_commands=3)
        assert osr.call_count == 1
        for _ in range(2):
            dice.command_started()
            [dice.randint(1, 10) for _ in range(40)]
        assert osr.call_count == 1
        dice.command_started()
        assert osr.call_count == 2
    # a command draws a few dozen faces: one state yields far fewer than the ~6,000 d10
    # faces (624 outputs of 32 bits) that rebuilding it would need
    assert dice_source.RESEED_COMMANDS * 40 < 6000


def test_commands_and_the_clock_use_it():
    from wodcombat.commands.base import WodCommand
    from wodcombat.world import combat_service

    assert isinstance(WodCommand.rng, GameDice)
    assert combat_service.GAME_DICE is WodCommand.rng
    assert not isinstance(WodCommand.rng, random.SystemRandom)
