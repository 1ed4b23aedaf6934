import { zipFiles } from "../shared/zip.ts";

// docx_to_text's input_example: a small real Word document (a heading, a paragraph with a link,
// a list and a table), built here rather than pasted as opaque base64.

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';

export function exampleDocx(): Buffer {
  const p = (text: string, props = "") => `<w:p>${props ? `<w:pPr>${props}</w:pPr>` : ""}<w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
  const body = [
    p("Отчёт", '<w:pStyle w:val="Heading1"/>'),
    `<w:p><w:r><w:t xml:space="preserve">Смотрите </w:t></w:r><w:hyperlink r:id="rId9"><w:r><w:t>сайт</w:t></w:r></w:hyperlink><w:r><w:t>.</w:t></w:r></w:p>`,
    p("Первый пункт", '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>'),
    p("Второй пункт", '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>'),
    `<w:tbl><w:tr><w:tc>${p("Код")}</w:tc><w:tc>${p("Цена")}</w:tc></w:tr><w:tr><w:tc>${p("A1")}</w:tc><w:tc>${p("100")}</w:tc></w:tr></w:tbl>`,
  ].join("");
  return zipFiles({
    "[Content_Types].xml":
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    "word/document.xml": `<?xml version="1.0" encoding="UTF-8"?><w:document ${W}><w:body>${body}</w:body></w:document>`,
    "word/_rels/document.xml.rels":
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://example.com/?a=1&amp;b=2" TargetMode="External"/></Relationships>',
  });
}
