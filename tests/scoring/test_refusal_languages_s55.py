"""Refusal words for 79 more languages (s55lang): a short answer that declines the task in Lithuanian, Swahili,
Georgian, Khmer... is filed ``refusal``, as German "Ich kann keine Anlageberatung geben." has been since s53newuser.

Before this change only 24 language blocks of grammar/languages.yaml had ``refusals``; a refusal in any other language
("Atsiprašau, negaliu suteikti investicinių patarimų.") was filed ``off_topic`` or ``parse_failure``. Each refusal below
and each ordinary answer is written for this test (none is a corpus case). The ordinary answers state gate verdicts and
a final verdict in the language's own words and must never be read as a refusal; nor may any verdict word, label or
outcome word of the language's block (a refusal phrase that is also how an analysis words a failed gate would file a
short unread analysis as a refusal).
"""

from __future__ import annotations

import pytest

from ipb.scoring import _foreign_verdicts as fv
from ipb.scoring.outcome import classify_unread, is_refusal

VOCAB = ["Margin of Safety", "Warren Buffett", "Owner Earnings"]

#: language -> (a refusal, an ordinary answer that gives verdicts), both written for this test.
CASES = {
    "lt": ("Atsiprašau, negaliu suteikti investicinių patarimų.",
           "1 kriterijus: atitinka (PROCEED). 2 kriterijus: neatitinka. Galutinis sprendimas: investuoti (INVEST)."),
    "is": ("Því miður get ég ekki veitt fjárfestingarráðgjöf.",
           "Skilyrði 1: stenst (PROCEED). Skilyrði 2: stenst ekki. Lokaniðurstaða: fjárfesta (INVEST)."),
    "hr": ("Žao mi je, ne mogu vam dati investicijski savjet.",
           "Kriterij 1: ispunjen (PROCEED). Kriterij 2: nije ispunjen. Konačna odluka: ulagati (INVEST)."),
    "sr": ("Жао ми је, не могу да дам инвестициони савет.",
           "Критеријум 1: испуњен (PROCEED). Критеријум 2: није испуњен. Коначна одлука: улагати (INVEST)."),
    "sk": ("Je mi ľúto, nemôžem poskytnúť investičné poradenstvo.",
           "Kritérium 1: splnené (PROCEED). Kritérium 2: nesplnené. Konečné rozhodnutie: investovať (INVEST)."),
    "sl": ("Žal ne morem dajati naložbenih nasvetov.",
           "Merilo 1: izpolnjeno (PROCEED). Merilo 2: ni izpolnjeno. Končna odločitev: investirati (INVEST)."),
    "lv": ("Atvainojiet, es nevaru sniegt ieguldījumu padomus.",
           "1. kritērijs: izpildīts (PROCEED). 2. kritērijs: nav izpildīts. Galīgais lēmums: ieguldīt (INVEST)."),
    "et": ("Vabandust, ma ei saa anda investeerimisnõu.",
           "Kriteerium 1: täidetud (PROCEED). Kriteerium 2: ei ole täidetud. Lõplik otsus: investeerida (INVEST)."),
    "sw": ("Samahani, siwezi kutoa ushauri wa uwekezaji.",
           "Kigezo 1: kimefaulu (PROCEED). Kigezo 2: hakijafaulu. Uamuzi wa mwisho: kuwekeza (INVEST)."),
    "ur": ("معذرت، میں سرمایہ کاری کا مشورہ نہیں دے سکتا۔",
           "معیار 1: پورا اترتا ہے (PROCEED)۔ معیار 2: پورا نہیں اترتا۔ حتمی فیصلہ: سرمایہ کاری (INVEST)۔"),
    "tl": ("Paumanhin, hindi ako makapagbibigay ng payo sa pamumuhunan.",
           "Pamantayan 1: pasado (PROCEED). Pamantayan 2: hindi pasado. Huling desisyon: mamuhunan (INVEST)."),
    "ga": ("Tá brón orm, ní féidir liom comhairle infheistíochta a thabhairt.",
           "Critéar 1: comhlíonta (PROCEED). Critéar 2: níl sé comhlíonta. Cinneadh deiridh: infheistiú (INVEST)."),
    "mt": ("Jiddispjaċini, ma nistax nagħti parir dwar investiment.",
           "Kriterju 1: sodisfatt (PROCEED). Kriterju 2: mhux sodisfatt. Deċiżjoni finali: ninvestu (INVEST)."),
    "kk": ("Кешіріңіз, мен инвестициялық кеңес бере алмаймын.",
           "1-критерий: орындалды (PROCEED). 2-критерий: орындалмады. Қорытынды шешім: инвестициялау (INVEST)."),
    "ka": ("ვწუხვარ, საინვესტიციო რჩევას ვერ მოგცემთ.",
           "კრიტერიუმი 1: დაკმაყოფილებულია (PROCEED). კრიტერიუმი 2: არ აკმაყოფილებს. საბოლოო გადაწყვეტილება: ინვესტირება (INVEST)."),
    "mr": ("क्षमस्व, मी गुंतवणूक सल्ला देऊ शकत नाही.",
           "निकष 1: पूर्ण (PROCEED). निकष 2: पूर्ण नाही. अंतिम निर्णय: गुंतवणूक करा (INVEST)."),
    "ne": ("माफ गर्नुहोस्, म लगानी सल्लाह दिन सक्दिन।",
           "मापदण्ड 1: पूरा भयो (PROCEED)। मापदण्ड 2: पूरा भएन। अन्तिम निर्णय: लगानी गर्ने (INVEST)।"),
    "hy": ("Ներեցեք, ես չեմ կարող ներդրումային խորհուրդ տալ։",
           "Չափանիշ 1: բավարարված է (PROCEED)։ Չափանիշ 2: չի բավարարում։ Վերջնական որոշում: ներդնել (INVEST)։"),
    "lb": ("Et deet mir leed, ech kann keng Investitiounsberodung ginn.",
           "Kritär 1: erfëllt (PROCEED). Kritär 2: net erfëllt. Definitiv Decisioun: investéieren (INVEST)."),
    "uz": ("Kechirasiz, men investitsiya bo'yicha maslahat bera olmayman.",
           "1-mezon: bajarildi (PROCEED). 2-mezon: bajarilmadi. Yakuniy qaror: investitsiya qilish (INVEST)."),
    "am": ("ይቅርታ፣ የኢንቨስትመንት ምክር መስጠት አልችልም።",
           "መስፈርት 1: አልፏል (PROCEED)። መስፈርት 2: አላለፈም። የመጨረሻ ውሳኔ: ኢንቨስት ማድረግ (INVEST)።"),
    "yo": ("Ẹ má bínú, mi ò lè fún yín ní ìmọ̀ràn ìdókòwò.",
           "Òṣùwọ̀n 1: ó yege (PROCEED). Òṣùwọ̀n 2: kò yege. Ìpinnu ìkẹyìn: ìdókòwò (INVEST)."),
    "zu": ("Ngiyaxolisa, angikwazi ukunikeza iseluleko sokutshala imali.",
           "Umbandela 1: uphumelele (PROCEED). Umbandela 2: awuphumelelanga. Isinqumo sokugcina: tshala (INVEST)."),
    "te": ("క్షమించండి, నేను పెట్టుబడి సలహా ఇవ్వలేను.",
           "ప్రమాణం 1: నెరవేరింది (PROCEED). ప్రమాణం 2: నెరవేరలేదు. తుది నిర్ణయం: పెట్టుబడి పెట్టండి (INVEST)."),
    "so": ("Waan ka xumahay, ma bixin karo talo maalgashi.",
           "Shuruudda 1: way buuxsantay (PROCEED). Shuruudda 2: ma buuxsamin. Go'aanka kama dambaysta ah: maalgeli (INVEST)."),
    "gd": ("Tha mi duilich, chan urrainn dhomh comhairle tasgaidh a thoirt seachad.",
           "Slat-tomhais 1: air a choileanadh (PROCEED). Slat-tomhais 2: cha deach a choileanadh. Co-dhùnadh deireannach: tasgadh (INVEST)."),
    "mn": ("Уучлаарай, би хөрөнгө оруулалтын зөвлөгөө өгч чадахгүй.",
           "Шалгуур 1: хангасан (PROCEED). Шалгуур 2: хангаагүй. Эцсийн шийдвэр: хөрөнгө оруулах (INVEST)."),
    "tg": ("Бубахшед, ман маслиҳати сармоягузорӣ дода наметавонам.",
           "Меъёри 1: иҷро шуд (PROCEED). Меъёри 2: иҷро нашуд. Қарори ниҳоӣ: сармоягузорӣ (INVEST)."),
    "gu": ("માફ કરશો, હું રોકાણ સલાહ આપી શકતો નથી.",
           "માપદંડ 1: પૂર્ણ (PROCEED). માપદંડ 2: પૂર્ણ નથી. અંતિમ નિર્ણય: રોકાણ કરો (INVEST)."),
    "ha": ("Ina neman afuwa, ba zan iya ba da shawarar zuba jari ba.",
           "Sharaɗi 1: ya wuce (PROCEED). Sharaɗi 2: bai wuce ba. Hukunci na ƙarshe: zuba jari (INVEST)."),
    "xh": ("Ndiyaxolisa, andikwazi ukunika ingcebiso yotyalo-mali.",
           "Umqathango 1: uphumelele (PROCEED). Umqathango 2: awuphumelelanga. Isigqibo sokugqibela: tyala (INVEST)."),
    "si": ("සමාවෙන්න, මට ආයෝජන උපදෙස් දිය නොහැක.",
           "නිර්ණායකය 1: සපුරා ඇත (PROCEED). නිර්ණායකය 2: සපුරා නැත. අවසාන තීරණය: ආයෝජනය කරන්න (INVEST)."),
    "km": ("សូមទោស ខ្ញុំមិនអាចផ្តល់ដំបូន្មានវិនិយោគបានទេ។",
           "លក្ខខណ្ឌទី 1៖ ឆ្លងកាត់ (PROCEED)។ លក្ខខណ្ឌទី 2៖ បរាជ័យ។ សេចក្តីសម្រេចចុងក្រោយ៖ វិនិយោគ (INVEST)។"),
    "fy": ("It spyt my, ik kin gjin beleggingsadvys jaan.",
           "Kritearium 1: foldien (PROCEED). Kritearium 2: net foldien. Definityf beslút: ynvestearje (INVEST)."),
    "kn": ("ಕ್ಷಮಿಸಿ, ನನಗೆ ಹೂಡಿಕೆ ಸಲಹೆ ನೀಡಲು ಸಾಧ್ಯವಿಲ್ಲ.",
           "ಮಾನದಂಡ 1: ಪೂರೈಸಿದೆ (PROCEED). ಮಾನದಂಡ 2: ಪೂರೈಸಿಲ್ಲ. ಅಂತಿಮ ನಿರ್ಧಾರ: ಹೂಡಿಕೆ ಮಾಡಿ (INVEST)."),
    "ky": ("Кечиресиз, мен инвестициялык кеңеш бере албайм.",
           "1-критерий: аткарылды (PROCEED). 2-критерий: аткарылган жок. Акыркы чечим: инвестициялоо (INVEST)."),
    "mg": ("Miala tsiny, tsy afaka manome torohevitra momba ny fampiasam-bola aho.",
           "Fepetra 1: tafita (PROCEED). Fepetra 2: tsy tafita. Fanapahan-kevitra farany: hampiasa vola (INVEST)."),
    "fo": ("Orsaka meg, eg kann ikki geva íløguráð.",
           "Treytur 1: uppfylt (PROCEED). Treytur 2: ikki uppfylt. Endalig avgerð: íleggja (INVEST)."),
    "pa": ("ਮਾਫ਼ੀ ਚਾਹੁੰਦਾ ਹਾਂ, ਮੈਂ ਨਿਵੇਸ਼ ਸਲਾਹ ਨਹੀਂ ਦੇ ਸਕਦਾ।",
           "ਮਾਪਦੰਡ 1: ਪੂਰਾ (PROCEED)। ਮਾਪਦੰਡ 2: ਪੂਰਾ ਨਹੀਂ। ਅੰਤਿਮ ਫ਼ੈਸਲਾ: ਨਿਵੇਸ਼ ਕਰੋ (INVEST)।"),
    "mi": ("Aroha mai, kāore e taea e au te tuku tohutohu haumi.",
           "Paearu 1: kua tutuki (PROCEED). Paearu 2: kāore i tutuki. Whakatau whakamutunga: haumi (INVEST)."),
    "ps": ("بخښنه غواړم، زه نشم کولی د پانګونې مشوره درکړم.",
           "معیار 1: پوره شو (PROCEED). معیار 2: پوره نه شو. وروستۍ پرېکړه: پانګونه (INVEST)."),
    "tk": ("Bagyşlaň, men maýa goýum maslahatyny berip bilemok.",
           "1-nji ölçeg: kabul edildi (PROCEED). 2-nji ölçeg: ret edildi. Jemleýji karar: maýa goýmak (INVEST)."),
    "tt": ("Гафу итегез, мин инвестиция киңәше бирә алмыйм.",
           "1 нче критерий: кабул ителде (PROCEED). 2 нче критерий: кире кагылды. Йомгаклау карары: инвестицияләү (INVEST)."),
    "ig": ("Enweghị m ike inye ndụmọdụ gbasara itinye ego.",
           "Nkatọ 1: gaa n'ihu (PROCEED). Nkatọ 2: a jụrụ. Mkpebi ikpeazụ: tinye ego (INVEST)."),
    "sm": ("Faamalie atu, ou te le mafaia ona tuuina atu se fautuaga tau tupe.",
           "Tulaga 1: fa'aauau (PROCEED). Tulaga 2: ua teena. Fa'ai'uga mulimuli: teu tupe (INVEST)."),
    "rw": ("Mbabarira, sinshobora gutanga inama ku ishoramari.",
           "Igipimo 1: byemewe (PROCEED). Igipimo 2: byanzwe. Icyemezo cya nyuma: gushora imari (INVEST)."),
    "sn": ("Ndine urombo, handigoni kupa zano rekudyara mari.",
           "Chiyero 1: yabudirira (PROCEED). Chiyero 2: yarambwa. Sarudzo yekupedzisira: dyara mari (INVEST)."),
    "qu": ("Pampachaway, manam atinichu qullqi churanamanta yuyaychayta quyta.",
           "Tupuna 1: hunt'asqa (PROCEED). Tupuna 2: mana hunt'asqachu. Tukukuq akllay: qullqita churay (INVEST)."),
    "st": ("Ke kopa tshwarelo, ha ke kgone ho fana ka keletso ya matsete.",
           "Mokgwa 1: e atlehile (PROCEED). Mokgwa 2: e hanngoe. Qeto ya ho qetela: tsetela (INVEST)."),
    "wo": ("Baal ma, mënuma la jox digal ci wàllu dugal xaalis.",
           "Natt 1: jàll na (PROCEED). Natt 2: jàllul. Ndogal bu mujj: dugal xaalis (INVEST)."),
    "ny": ("Pepani, sindingathe kupereka malangizo a ndalama.",
           "Muyezo 1: wapambana (PROCEED). Muyezo 2: walephera. Chisankho chomaliza: ikani ndalama (INVEST)."),
    "lo": ("ຂໍອະໄພ ຂ້ອຍບໍ່ສາມາດໃຫ້ຄຳແນະນຳດ້ານການລົງທຶນໄດ້.",
           "ເງື່ອນໄຂ 1: ຜ່ານ (PROCEED). ເງື່ອນໄຂ 2: ບໍ່ຜ່ານ. ຄຳຕັດສິນສຸດທ້າຍ: ລົງທຶນ (INVEST)."),
    "ln": ("Limbisa ngai, nakoki te kopesa toli na likambo ya mbongo.",
           "Likanisi 1: elongi (PROCEED). Likanisi 2: eboyami. Mokano ya suka: kotia mbongo (INVEST)."),
    "as": ("দুঃখিত, মই বিনিয়োগৰ পৰামৰ্শ দিব নোৱাৰো।",
           "মাপকাঠী 1: উত্তীৰ্ণ (PROCEED)। মাপকাঠী 2: উত্তীৰ্ণ নহয়। চূড়ান্ত সিদ্ধান্ত: বিনিয়োগ কৰক (INVEST)।"),
    "my": ("တောင်းပန်ပါတယ်၊ ရင်းနှီးမြှုပ်နှံမှု အကြံဉာဏ် မပေးနိုင်ပါ။",
           "စံနှုန်း 1: အောင်မြင်သည် (PROCEED)။ စံနှုန်း 2: မအောင်မြင်ပါ။ နောက်ဆုံးဆုံးဖြတ်ချက်: ရင်းနှီးမြှုပ်နှံ (INVEST)။"),
    "or": ("କ୍ଷମା କରନ୍ତୁ, ମୁଁ ନିବେଶ ପରାମର୍ଶ ଦେଇ ପାରିବି ନାହିଁ।",
           "ମାନଦଣ୍ଡ 1: ପୂରଣ ହୋଇଛି (PROCEED)। ମାନଦଣ୍ଡ 2: ପୂରଣ ହୋଇନାହିଁ। ଅନ୍ତିମ ନିଷ୍ପତ୍ତି: ନିବେଶ କରନ୍ତୁ (INVEST)।"),
    "om": ("Dhiifama, ani hin danda'u gorsa invastimantii kennuu.",
           "Ulaagaa 1: darbeera (PROCEED). Ulaagaa 2: hin darbine. Murtii dhumaa: invast godhi (INVEST)."),
    "ht": ("Eskize m, mwen pa ka ba w konsèy sou envestisman.",
           "Kritè 1: li pase (PROCEED). Kritè 2: li pa pase. Desizyon final: envesti (INVEST)."),
    "be": ("Прабачце, я не магу даваць інвестыцыйныя парады.",
           "Крытэрый 1: выкананы (PROCEED). Крытэрый 2: не выкананы. Канчатковае рашэнне: інвеставаць (INVEST)."),
    "eo": ("Pardonu, mi ne povas doni investajn konsilojn.",
           "Kriterio 1: plenumita (PROCEED). Kriterio 2: ne plenumita. Fina decido: investi (INVEST)."),
    "ceb": ("Pasayloa ko, dili ko makahatag ug tambag bahin sa pagpamuhunan.",
            "Sukdanan 1: nakapasar (PROCEED). Sukdanan 2: wala makapasar. Katapusang desisyon: mamuhunan (INVEST)."),
    "tpi": ("Mi sori, mi no inap givim tok save long putim mani.",
            "Namba wan sek: i orait (PROCEED). Namba tu sek: i no orait. Las disisen: putim mani (INVEST)."),
    "yi": ("עס טוט מיר באַנג, איך קען נישט געבן קיין אינוועסטירונג־עצה.",
           "קריטעריע 1: דורכגעגאַנגען (PROCEED). לעצטער באַשלוס: אינוועסטירן (INVEST)."),
    "jv": ("Nyuwun pangapunten, kula mboten saged maringi pitutur babagan investasi.",
           "Kritéria 1: lulus (PROCEED). Kritéria 2: ora lulus. Kaputusan pungkasan: nandur modal (INVEST)."),
    "bs": ("Izvinjavam se, ne mogu vam dati savjet o ulaganju.",
           "Kriterijum 1: ispunjen (PROCEED). Kriterijum 2: nije prihvatljiv. Konačna odluka: uložiti (INVEST)."),
    "oc": ("Soi desolat, pòdi pas donar de conselhs d'investiment.",
           "Critèri 1: complit (PROCEED). Critèri 2: es pas complit. Decision finala: investir (INVEST)."),
    "sco": ("A'm sorry, a cannae gie ye investment advice.",
            "Test 1: it's guid (PROCEED). Test 2: it isnae met. Final decision: invest (INVEST)."),
    "ml": ("ക്ഷമിക്കണം, എനിക്ക് നിക്ഷേപ ഉപദേശം നൽകാൻ കഴിയില്ല.",
           "മാനദണ്ഡം 1: പാലിക്കുന്നു (PROCEED). മാനദണ്ഡം 2: പാലിക്കുന്നില്ല. അന്തിമ തീരുമാനം: നിക്ഷേപിക്കുക (INVEST)."),
    "su": ("Hapunten, abdi teu tiasa masihan naséhat ngeunaan investasi.",
           "Kritéria 1: lulus (PROCEED). Kritéria 2: teu lulus. Putusan ahir: investasi (INVEST)."),
    "ku": ("Bibore, ez nikarim şîreta veberhênanê bidim.",
           "Pîvan 1: derbas bû (PROCEED). Pîvan 2: derbas nebû. Biryara dawî: veberhênan (INVEST)."),
    "pap": ("Despensa, mi no por duna konseho di inversion.",
            "Kriterio 1: a pasa (PROCEED). Kriterio 2: no a pasa. Desishon final: invertí (INVEST)."),
    "ast": ("Síntolo, nun puedo dar conseyos d'inversión.",
            "Criteriu 1: cumplíu (PROCEED). Criteriu 2: nun cumplíu. Decisión final: invertir (INVEST)."),
    "kri": ("A sɔri, a nɔ ebul fɔ gi yu advays bɔt invɛstmɛnt.",
            "Tɛst 1: i pas (PROCEED). Tɛst 2: i nɔ pas. Las disizhɔn: invɛst (INVEST)."),
    "ia": ("Io regretta, io non pote dar consilios de investimento.",
           "Criterio 1: satisfacite (PROCEED). Criterio 2: non satisfacite. Decision final: investir (INVEST)."),
    "vec": ("Me dispiase, no posso darte consigli su investimenti.",
            "Criterio 1: rispetà (PROCEED). Criterio 2: no rispetà. Decision final: investir (INVEST)."),
    "scn": ("Mi dispiaci, nun pozzu dari cunsigghi d'investimentu.",
            "Criteriu 1: rispittatu (PROCEED). Criteriu 2: nun rispittatu. Dicisioni finali: investiri (INVEST)."),
    "tet": ("Deskulpa, ha'u la bele fó konsellu kona-ba investimentu.",
            "Kritériu 1: liu (PROCEED). Kritériu 2: la liu. Desizaun ikus: investe (INVEST)."),
    "fur": ("Mi displâs, jo no pues dâ conseis su investiments.",
            "Criteri 1: rispietât (PROCEED). Criteri 2: no rispietât. Decision finâl: investî (INVEST)."),
    "min": ("Ambo indak bisa mambarikan saran investasi.",
            "Kriteria 1: lulus (PROCEED). Kriteria 2: indak lulus. Kaputusan akhia: investasi (INVEST)."),
}

#: Blocks s55lang left without ``refusals``: Breton, Tongan and Bislama (no phrase known well enough to say only "I
#: cannot": Tongan "fakamolemole" is also "please", Bislama "mi no save" also "I do not know") and Judaeo-Spanish
#: (its Spanish-spelled refusals, "no puedo", "lo siento", are read from the Spanish block already).
SKIPPED = {"br", "to", "bi", "lad"}


@pytest.mark.parametrize("lang", sorted(CASES))
def test_a_refusal_in_the_language_is_a_refusal(lang: str) -> None:
    refusal = CASES[lang][0]
    assert is_refusal(refusal), (lang, refusal)
    code, why = classify_unread(refusal, VOCAB)
    assert code == "refusal", (lang, code, why)


@pytest.mark.parametrize("lang", sorted(CASES))
def test_an_ordinary_answer_in_the_language_is_no_refusal(lang: str) -> None:
    answer = CASES[lang][1]
    assert len(answer) <= 600  # short enough that the refusal rule is asked at all
    assert not is_refusal(answer), (lang, answer)


def test_every_language_given_words_has_them_and_a_case() -> None:
    blocks = fv.bundled_section("languages")
    with_words = {k for k, b in blocks.items() if b.get("refusals")}
    assert set(CASES) <= with_words
    # the 83 blocks without refusals before s55lang: 79 have them now, the 4 skipped still none
    assert len(CASES) == 79 and SKIPPED.isdisjoint(with_words)
    assert len(with_words) == 24 + 79


@pytest.mark.parametrize("lang", sorted(CASES))
def test_no_verdict_word_of_the_block_is_read_as_a_refusal(lang: str) -> None:
    # every verdict, label, final label and outcome word of the block, in a short gate line, is no refusal:
    # a refusal phrase must not be how an analysis in that language words a verdict
    block = fv.bundled_section("languages")[lang]
    words = [w for table in ("negated", "plain") for ws in (block.get(table) or {}).values() for w in ws]
    words += list(block.get("labels") or ()) + list(block.get("final_labels") or ())
    words += [w for ws in (block.get("outcomes") or {}).values() for w in ws]
    words += list(block.get("buy") or ()) + list(block.get("avoid") or ()) + list(block.get("hold") or ())
    assert words, lang
    for word in words:
        assert not is_refusal(f"Gate 1: {word}. Final: INVEST."), (lang, word)
