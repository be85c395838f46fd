/// People, groups, galleries and albums in Flickr's REST XML, shaped as the
/// recorded answers are (`people.getInfo`, `urls.lookupGroup`,
/// `urls.lookupGallery`, `photosets.getPhotos`, `photosets.getList`).
extension FlickrXML {
    mutating func renderCollection(_ payload: RestPayload) {
        raw("<rsp stat=\"ok\">\n")
        switch payload {
        case .person(let info):
            person(info)
        case .group(let group):
            raw("<group id=\"\(group.nsid)\">\n\t<groupname>")
            escaped(group.name)
            raw("</groupname>\n</group>\n")
        case .gallery(let info):
            gallery(info, imageBase: "")
        case .photoset(let listing, let header):
            raw("<photoset id=\"\(header.album.id)\" primary=\"\(header.primaryID)\" owner=\"\(header.album.owner)\"")
            attribute("ownername", header.ownerName)
            raw(" page=\"\(listing.text(\.page, listing.page))\" per_page=\"\(listing.text(\.perPage, listing.perPage))\"")
            raw(" perpage=\"\(listing.text(\.perPage, listing.perPage))\"")
            raw(" pages=\"\(listing.text(\.pages, listing.pages))\"")
            attribute("title", header.album.title)
            raw(" total=\"\(listing.text(\.total, listing.total))\"")
            if listing.photos.isEmpty {
                raw(" />\n")
            } else {
                raw(">\n")
                for photo in listing.photos { self.photo(photo, in: listing) }
                raw("</photoset>\n")
            }
        case .photosets(let list):
            photosets(list)
        default:
            break
        }
        raw("</rsp>\n")
    }

    /// `<name>text</name>`, or `<name />` when empty, after `indent` tabs.
    private mutating func textElement(_ name: String, _ text: String, indent: Int = 1) {
        raw(String(repeating: "\t", count: indent))
        if text.isEmpty {
            raw("<\(name) />\n")
            return
        }
        raw("<\(name)>")
        escaped(text)
        raw("</\(name)>\n")
    }

    private mutating func person(_ info: PersonInfo) {
        let person = info.person
        raw("<person id=\"\(person.nsid)\" nsid=\"\(person.nsid)\" ispro=\"0\" is_deleted=\"0\" iconserver=\"0\" iconfarm=\"0\"")
        attribute("path_alias", person.pathAlias)
        raw(" has_stats=\"0\">\n")
        textElement("username", person.username)
        textElement("realname", person.realName)
        textElement("location", "")
        textElement("description", "")
        textElement("photosurl", person.photosURL)
        textElement("profileurl", person.profileURL)
        textElement("mobileurl", person.photosURL)
        raw("\t<photos>\n")
        textElement("firstdatetaken", info.photos.map(\.dateTaken).min() ?? "", indent: 2)
        textElement("firstdate", info.photos.last.map { String($0.dateUpload) } ?? "", indent: 2)
        textElement("count", String(info.photos.count), indent: 2)
        raw("\t</photos>\n</person>\n")
    }

    /// A `<gallery>` element: `urls.lookupGallery`'s answer, or the
    /// `get_gallery_info` trailer of `galleries.getPhotos`.
    mutating func gallery(_ info: GalleryInfo, imageBase: String) {
        let gallery = info.gallery
        let videos = info.photos.filter(\.isVideo).count
        raw("<gallery id=\"\(gallery.compoundID)\" gallery_id=\"\(gallery.id)\"")
        attribute("url", info.owner.photosURL + "galleries/\(gallery.id)")
        raw(" owner=\"\(gallery.owner)\"")
        attribute("username", info.owner.username)
        raw(" iconserver=\"0\" iconfarm=\"0\" primary_photo_id=\"\(info.photos.first?.id ?? "")\"")
        raw(" date_create=\"\(gallery.dateCreate)\" date_update=\"\(gallery.dateUpdate)\"")
        raw(" count_photos=\"\(info.photos.count - videos)\" count_videos=\"\(videos)\" count_total=\"\(info.photos.count)\"")
        raw(" count_views=\"0\" count_comments=\"0\" sort_group=\"\"")
        if let primary = info.photos.first {
            raw(" primary_photo_server=\"\(primary.server)\" primary_photo_farm=\"\(primary.farm)\"")
            raw(" primary_photo_secret=\"\(primary.secret)\"")
        }
        raw(">\n")
        textElement("title", gallery.title)
        textElement("description", gallery.description)
        raw("</gallery>\n")
    }

    private mutating func photosets(_ list: PhotosetList) {
        raw("<photosets page=\"\(list.page)\" pages=\"\(list.pages)\" perpage=\"\(list.perPage)\" total=\"\(list.total)\"")
        if list.entries.isEmpty {
            raw(" />\n")
            return
        }
        raw(">\n")
        for entry in list.entries {
            let album = entry.album
            let primary = entry.primary
            raw("\t<photoset id=\"\(album.id)\" primary=\"\(primary.id)\" secret=\"\(primary.secret)\"")
            raw(" server=\"\(primary.server)\" farm=\"\(primary.farm)\"")
            raw(" photos=\"\(entry.photoCount - entry.videos)\" videos=\"\(entry.videos)\"")
            raw(" needs_interstitial=\"0\" visibility_can_see_set=\"1\" count_views=\"0\" count_comments=\"0\"")
            raw(" can_comment=\"0\" date_create=\"\(album.dateCreate)\" date_update=\"\(album.dateUpdate)\">\n")
            textElement("title", album.title, indent: 2)
            textElement("description", album.description, indent: 2)
            if let extras = list.primaryExtras {
                raw("\t\t<primary_photo_extras")
                extraAttributes(primary, extras: extras, imageBase: list.imageBase)
                raw(" />\n")
            }
            raw("\t</photoset>\n")
        }
        raw("</photosets>\n")
    }
}
