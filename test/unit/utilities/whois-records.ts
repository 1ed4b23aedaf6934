// WHOIS records as registries send them (names and numbers changed), for the whois utility's tests.

export const RU_RECORD = `% TCI Whois Service. Terms of use:
% https://tcinet.ru/documents/whois_ru_rf.pdf (in Russian)

domain:        EXAMPLE.RU
nserver:       ns1.example.ru. 192.0.2.1
nserver:       ns2.example.net.
state:         REGISTERED, DELEGATED, VERIFIED
org:           Example LLC
taxpayer-id:   7700000000
registrar:     RU-CENTER-RU
admin-contact: https://www.nic.ru/whois
created:       2004-05-07T20:00:00Z
paid-till:     2027-05-07T21:00:00Z
free-date:     2027-06-08
source:        TCI

Last updated on 2026-11-25T10:01:31Z
`;

export const COM_RECORD = `   Domain Name: EXAMPLE.COM
   Registry Domain ID: 2336799_DOMAIN_COM-VRSN
   Registrar WHOIS Server: whois.example-registrar.com
   Registrar URL: http://www.example-registrar.com
   Updated Date: 2024-08-14T07:01:34Z
   Creation Date: 1995-08-14T04:00:00Z
   Registry Expiry Date: 2025-08-13T04:00:00Z
   Registrar: Example Registrar, Inc.
   Domain Status: clientDeleteProhibited https://icann.org/epp#clientDeleteProhibited
   Domain Status: clientTransferProhibited https://icann.org/epp#clientTransferProhibited
   Name Server: A.IANA-SERVERS.NET
   Name Server: B.IANA-SERVERS.NET
   DNSSEC: signedDelegation
>>> Last update of whois database: 2026-11-25T10:00:00Z <<<
`;
