"""

Server plugin services

This plugin module can define user-created services for the Server to
start.

This module must handle all imports and setups required to start a
twisted service (see examples in evennia.server.server). It must also
contain a function start_plugin_services(application). Evennia will
call this function with the main Server application (so your services
can be added to it). The function should not return anything. Plugin
services are started last in the Server startup process.

"""


def start_plugin_services(server):
    """
    This hook is called by Evennia, last in the Server startup process.

    server - a reference to the main server application.
    """
    # Issue 13: the Server's end of the portal link is the class settings name
    # (WODCOMBAT_TCP_NODELAY, WODCOMBAT_BATCH_AMP: wodcombat/server/nodelay.py, amp_batch.py).
    # Evennia 6.1's AMPClientFactory.buildProtocol builds the class named AMPServerClientProtocol in
    # its module, not the AMP_CLIENT_PROTOCOL_CLASS setting; point that name at the
    # setting's class, only when it is not Evennia's own (issue 27: a stock game keeps it).
    # Plugins start before the link is made, so the first connection gets it as well.
    from django.conf import settings
    from evennia.server import amp_client
    from evennia.utils.utils import class_from_module

    cls = class_from_module(settings.AMP_CLIENT_PROTOCOL_CLASS)
    if cls is not amp_client.AMPServerClientProtocol:
        amp_client.AMPServerClientProtocol = cls
