/*
 *
 * Evennia Webclient default "send-text-on-enter-key" IO plugin
 *
 */
let font_plugin = (function () {

    // This game's copy of Evennia's font plugin (issue 29): Evennia's asks
    // fonts.googleapis.com for seven fonts, which fails on a closed network and reaches a
    // host other than the game's. Only the font Evennia ships is loaded; the rest are the
    // reader's own fonts if installed (an empty URL: nothing is fetched).
    const font_urls = {
        'B612 Mono': '',
        'Consolas': '',
        'DejaVu Sans Mono': '/static/webclient/fonts/DejaVuSansMono.css',
        'Fira Mono': '',
        'Inconsolata': '',
        'Monospace': '',
        'Roboto Mono': '',
        'Source Code Pro': '',
        'Ubuntu Mono': '',
    };

    //
    //
    var setStartingFont = function () {
        var fontfamily = localStorage.getItem("evenniaFontFamily");
        if( !fontfamily ) {
            $(document.body).css("font-family", fontfamily);
        }

        var fontsize = localStorage.getItem("evenniaFontSize");
        if( !fontsize ) {
            $(document.body).css("font-size", fontsize+"em");
        }
    }

    //
    //
    var getActiveFontFamily = function () {
        var family = "DejaVu Sans Mono";
        var fontfamily = localStorage.getItem("evenniaFontFamily");
        if( fontfamily != null ) {
            family = fontfamily;
        }
        return family;
    }

    //
    //
    var getActiveFontSize = function () {
        var size = "0.9";
        var fontsize = localStorage.getItem("evenniaFontSize");
        if( fontsize != null ) {
            size = fontsize;
        }
        return size;
    }

    //
    // 
    var onFontFamily = function (evnt) {
        var family = $(evnt.target).val();
        $(document.body).css("font-family", family);
        localStorage.setItem("evenniaFontFamily", family);
    }
 
    //
    //
    var onFontSize = function (evnt) {
        var size = $(evnt.target).val();
        $(document.body).css("font-size", size+"em");
        localStorage.setItem("evenniaFontSize", size);
    }

    //
    //
    var onOptionsUI = function (parentdiv) {
        var fontselect = $("<select>");
        var sizeselect = $("<select>");

        var fonts = Object.keys(font_urls);
        for( const font of fonts ) {
            fontselect.append( $("<option value='"+font+"'>"+font+"</option>") );
        }

        for (var x = 4; x < 21; x++) {
            var val = (x/10.0);
            sizeselect.append( $("<option value='"+val+"'>"+x+"</option>") );
        }

        fontselect.val( getActiveFontFamily() );
        sizeselect.val( getActiveFontSize() );

        // font change callbacks
        fontselect.on("change", onFontFamily);
        sizeselect.on("change", onFontSize);

        // add the font selection dialog control to our parentdiv
        parentdiv.append("<div style='font-weight: bold'>Font Selection:</div>");
        parentdiv.append(fontselect);
        parentdiv.append(sizeselect);
    }

    //
    // Font plugin init function (adds the urls for the webfonts to the page)
    // 
    var init = function () {
        var head = $(document.head);

        var fonts = Object.keys(font_urls);
        for (var x = 0; x < fonts.length; x++) {
            var url = font_urls[ fonts[x] ];
            if ( url ) {
                var link = $("<link href='"+url+"' rel='stylesheet'>");
                head.append( link );
            }
        }

        setStartingFont();
    }

    return {
        init: init,
        onOptionsUI: onOptionsUI,
    }
})();
window.plugin_handler.add("font", font_plugin);
